#include "suppressions_helper.h"

void* helper_heap_writer(void* block) {
  *(int*)block += 1;
  return 0;
}

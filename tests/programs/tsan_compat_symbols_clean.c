/* Calls every ThreadSanitizer entry point that test programs use beyond the
 * compiler's callbacks, on data only this thread touches: clean, and each
 * must link and behave (the loads return what the stores wrote, the syscall
 * hooks accept a raw read/write/close on a pipe, the __interceptor_ aliases
 * allocate and free, the shadow stack is deeper inside a call). */
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/linux_syscall_hooks.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

void AnnotateIgnoreSyncBegin(const char *file, int line);
void AnnotateIgnoreSyncEnd(const char *file, int line);
void *__interceptor_malloc(size_t size);
void __interceptor_free(void *p);
uintptr_t __tsan_testonly_shadow_stack_current_size(void);

char bytes[32];
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int counter;

__attribute__((noinline)) uintptr_t depth_inside(void) { return __tsan_testonly_shadow_stack_current_size(); }

int main(void) {
  int ok = 1;
  AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
  pthread_mutex_lock(&lock);
  ++counter;
  pthread_mutex_unlock(&lock);
  AnnotateIgnoreSyncEnd(__FILE__, __LINE__);

  __sanitizer_unaligned_store16(bytes + 1, 0x1234);
  __sanitizer_unaligned_store32(bytes + 3, 0x12345678u);
  __sanitizer_unaligned_store64(bytes + 9, 0x1122334455667788ull);
  ok &= __sanitizer_unaligned_load16(bytes + 1) == 0x1234;
  ok &= __sanitizer_unaligned_load32(bytes + 3) == 0x12345678u;
  ok &= __sanitizer_unaligned_load64(bytes + 9) == 0x1122334455667788ull;

  int p[2];
  if (pipe(p) != 0) return 2;
  char out[4] = "abc", in[4] = {0};
  __sanitizer_syscall_pre_write(p[1], out, 3);
  long n = syscall(SYS_write, p[1], out, 3);
  __sanitizer_syscall_post_write(n, p[1], out, 3);
  __sanitizer_syscall_pre_read(p[0], in, 3);
  n = syscall(SYS_read, p[0], in, 3);
  __sanitizer_syscall_post_read(n, p[0], in, 3);
  ok &= n == 3 && in[2] == 'c';
  __sanitizer_syscall_pre_getpid();
  long pid = syscall(SYS_getpid);
  __sanitizer_syscall_post_getpid(pid);
  for (int i = 0; i < 2; ++i) {
    __sanitizer_syscall_pre_close(p[i]);
    long r = syscall(SYS_close, p[i]);
    __sanitizer_syscall_post_close(r, p[i]);
  }

  int *block = __interceptor_malloc(sizeof *block);
  *block = 5;
  ok &= *block == 5;
  __interceptor_free(block);

  ok &= depth_inside() > __tsan_testonly_shadow_stack_current_size();
  return ok && counter == 1 ? 0 : 1;
}

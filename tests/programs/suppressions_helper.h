// The heap race of suppressions_race.c lives in its own file, so that a
// file pattern can tell it from the others.
void* helper_heap_writer(void* block);

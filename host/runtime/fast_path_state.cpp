// The state the access callbacks' fast path shares with the runtime
// (hot_path.hpp, RACEACCEL_SHARED_WITH_PROGRAM). Built into the runtime and
// into libraceaccel_rt_fast.a: in a program linked with the archive, the
// program's definitions are the ones every reference binds to.
#include "runtime/region_filter.hpp"
#include "runtime/thread_state.hpp"

namespace raceaccel::rt {

__thread ThreadState* t_thread RACEACCEL_FAST_PATH_TLS = nullptr;
__thread uint8_t t_in_runtime RACEACCEL_FAST_PATH_TLS = 0;
__thread RegionView t_region RACEACCEL_FAST_PATH_TLS;
__thread bool t_signals_deferred RACEACCEL_FAST_PATH_TLS = false;
ForgetEpoch g_forget_epoch RACEACCEL_SHARED_WITH_PROGRAM;

}  // namespace raceaccel::rt

#ifdef RACEACCEL_FAST_PATH_IN_PROGRAM
extern "C" RACEACCEL_SHARED_WITH_PROGRAM const unsigned RACEACCEL_FAST_PATH_LAYOUT = RACEACCEL_FAST_PATH_LAYOUT_VERSION;
#endif

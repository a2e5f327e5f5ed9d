/* A thread created with a signal mask in its attributes
 * (pthread_attr_setsigmask_np) starts with that mask, not its creator's:
 * the runtime's pthread_create, which blocks every signal until the child
 * is attached and then restores the child's mask, must restore this one.
 * Clean; exit status 1 if the child's mask is wrong. */
#include <pthread.h>
#include <signal.h>

static void* report_mask(void* arg) {
  (void)arg;
  sigset_t mask;
  pthread_sigmask(SIG_SETMASK, 0, &mask);
  return (void*)(long)(sigismember(&mask, SIGUSR1) == 1 && sigismember(&mask, SIGUSR2) == 0);
}

int main(void) {
  sigset_t creator;
  sigemptyset(&creator);
  sigaddset(&creator, SIGUSR2);
  pthread_sigmask(SIG_SETMASK, &creator, 0);  // the creator blocks SIGUSR2 only
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  sigset_t wanted;
  sigemptyset(&wanted);
  sigaddset(&wanted, SIGUSR1);  // the child must block SIGUSR1 only
  pthread_attr_setsigmask_np(&attr, &wanted);
  pthread_t t;
  pthread_create(&t, &attr, report_mask, 0);
  void* right = 0;
  pthread_join(t, &right);
  pthread_attr_destroy(&attr);
  return right == (void*)1L ? 0 : 1;
}

/* Notifications glibc runs in threads of its own (SIGEV_THREAD): a POSIX
 * timer's and a message queue's. What the program did before arming the
 * notification happens before the callback (a timer fires only after it
 * was created and set; a queue notifies only after mq_notify registered),
 * and the callback hands its result back through a semaphore. The runtime
 * met glibc's thread as a stranger and reported false races on the set-up
 * data; stock TSan 19 crashes on these threads.
 *   timer      the data written before timer_create: clean
 *   settime    written between timer_create and timer_settime: clean
 *   mq         written before mq_notify, read by the notification: clean
 *   late       written after timer_settime, while the timer may fire:
 *              a race (nothing orders the write and the callback's read) */
#include <fcntl.h>
#include <mqueue.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int input[16];
static int output;
static sem_t done;

static void sum_input(union sigval v) {
  int sum = 0;
  for (int i = 0; i < 16; i++) sum += input[i];
  output = sum + v.sival_int;
  sem_post(&done);
}

static void set_input(int base) {
  for (int i = 0; i < 16; i++) input[i] = base + i;
}

static int run_timer(int before_create, int before_set, int after_set) {
  struct sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD;
  sev.sigev_notify_function = sum_input;
  sev.sigev_value.sival_int = 1000;
  if (before_create) set_input(1);
  timer_t timer;
  if (timer_create(CLOCK_MONOTONIC, &sev, &timer) != 0) {
    perror("timer_create");
    return 1;
  }
  if (before_set) set_input(2);
  struct itimerspec when;
  memset(&when, 0, sizeof when);
  when.it_value.tv_nsec = 20 * 1000 * 1000;  // once, in 20 ms
  if (timer_settime(timer, 0, &when, 0) != 0) {
    perror("timer_settime");
    return 1;
  }
  if (after_set) set_input(3);
  sem_wait(&done);
  printf("timer: %d\n", output);
  timer_delete(timer);
  return 0;
}

static int run_queue(void) {
  const char* name = "/raceaccel_notify_thread";
  struct mq_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.mq_maxmsg = 4;
  attr.mq_msgsize = 16;
  mq_unlink(name);
  const mqd_t queue = mq_open(name, O_CREAT | O_RDWR, 0600, &attr);
  if (queue == (mqd_t)-1) {
    perror("mq_open");
    return 1;
  }
  mq_unlink(name);
  set_input(4);
  struct sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD;
  sev.sigev_notify_function = sum_input;
  sev.sigev_value.sival_int = 2000;
  if (mq_notify(queue, &sev) != 0) {
    perror("mq_notify");
    return 1;
  }
  if (mq_send(queue, "x", 1, 0) != 0) {
    perror("mq_send");
    return 1;
  }
  sem_wait(&done);
  printf("queue: %d\n", output);
  mq_close(queue);
  return 0;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "timer";
  sem_init(&done, 0, 0);
  if (strcmp(mode, "timer") == 0) return run_timer(1, 0, 0);
  if (strcmp(mode, "settime") == 0) return run_timer(0, 1, 0);
  if (strcmp(mode, "late") == 0) return run_timer(0, 0, 1);
  if (strcmp(mode, "mq") == 0) return run_queue();
  fprintf(stderr, "usage: notify_thread timer|settime|late|mq\n");
  return 2;
}

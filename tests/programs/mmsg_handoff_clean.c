/* sendmmsg / recvmmsg on a datagram socketpair as a handoff: the receiver
 * is ordered after the sender's earlier write of `data`, as with sendmsg
 * and recvmsg (the received bytes are written, the sent ones read). Without
 * their interceptors every run reported a race. Clean (stock TSan
 * agrees). */
#include <pthread.h>
#include <sys/socket.h>
#include <sys/uio.h>

static int ends[2];
long data;

static void* receiver(void* arg) {
  (void)arg;
  char bytes[4] = {0};
  struct iovec part = {bytes, sizeof bytes};
  struct mmsghdr message = {.msg_hdr = {.msg_iov = &part, .msg_iovlen = 1}};
  if (recvmmsg(ends[1], &message, 1, 0, 0) != 1 || bytes[0] != 'x') return (void*)1;
  return (void*)(data == 42 ? 0L : 1L);
}

int main(void) {
  socketpair(AF_UNIX, SOCK_DGRAM, 0, ends);
  pthread_t t;
  pthread_create(&t, 0, receiver, 0);
  data = 42;
  char byte = 'x';
  struct iovec part = {&byte, 1};
  struct mmsghdr message = {.msg_hdr = {.msg_iov = &part, .msg_iovlen = 1}};
  sendmmsg(ends[0], &message, 1, 0);
  void* failed = 0;
  pthread_join(t, &failed);
  return failed == 0 ? 0 : 1;
}

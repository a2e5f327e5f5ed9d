// File descriptors: the data read() and write() move between the program's
// buffers and the kernel is checked as accesses, and descriptors carry
// happens-before the way ThreadSanitizer models it:
// - writing (write, send, ...) to a descriptor releases its sync object,
//   reading (read, recv, ...) from it acquires it; pipe() and socketpair()
//   give both ends one object, dup() & co. share it; every regular file opened
//   with open() shares one object, every connected socket another (and
//   connect() happens before the accept() that returns its peer); socket()
//   and descriptors the runtime did not see created have none;
// - every use of a descriptor is a read of its table entry and close() a
//   write of it, so a use racing with close() is a race on the descriptor.
//   Creating a descriptor clears its entry's history and writes it; closing
//   clears it after the write.
// The table has a fixed size (no allocation on these paths; descriptors at
// or above kMaxFds, 2^20, are not tracked). Sync object ids are the addresses of the
// runtime's own table entries, so they never collide with program memory.
#include <fcntl.h>
#include <limits.h>
#include <mqueue.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

#include "runtime/exported.hpp"
#include "runtime/fd_table.hpp"
#include "runtime/libc_access.hpp"
#include "runtime/real_functions.hpp"
#include "runtime/runtime.hpp"

using namespace raceaccel;
using namespace raceaccel::rt;

namespace {

// Up to 2^20, the kernel's default ceiling for RLIMIT_NOFILE (fs.nr_open):
// a server that raises its limit got untracked descriptors above 8192 (a
// pipe handoff there was a false race). The tables take 20 MiB of address
// space; only the pages of descriptors in use are ever touched.
constexpr int kMaxFds = 1 << 20;

// One descriptor: `cell` is the memory location its uses and close() access
// (8 bytes, like ThreadSanitizer's); `sync` names its sync object (0: none,
// else an index + 1 into g_sync).
struct Descriptor {
  uint64_t cell;
  std::atomic<uint32_t> sync;
  // The sync object of the epoll descriptor that watches this one (0: none;
  // a reference it holds): writing here releases it too (epoll_ctl below).
  std::atomic<uint32_t> watcher;
};
// A sync object shared by `refs` descriptors; the first kShared are the
// global ones, never released.
struct SyncObject {
  std::atomic<uint32_t> refs;
};
enum SharedSync : uint32_t { kFileSync, kSocketSync, kConnectSync, kShared };

// constinit: zero pages the kernel maps on first touch. Without it the
// compiler initialized the tables element by element at load time, which
// touched all 20 MiB (the 20,000-thread torture program's peak memory went
// from 44 to 62 MB).
constinit Descriptor g_fds[kMaxFds];
constinit SyncObject g_sync[kShared + kMaxFds];  // every open descriptor holds at most one reference

Descriptor* entry(int fd) { return fd >= 0 && fd < kMaxFds ? &g_fds[fd] : nullptr; }
const void* sync_id(uint32_t ref) { return &g_sync[ref - 1]; }
uint32_t shared_ref(SharedSync s) { return static_cast<uint32_t>(s) + 1; }

// A fresh private sync object holding `refs` references (a free one always
// exists: there are as many as descriptors). A reused object's clocks are
// dropped first (a Destroy of its id): kept, they ordered a new pipe's
// reader after whoever wrote to the old pipe that had the object (the same
// descriptor number, closed and made again), which hid the races between
// them.
uint32_t new_sync(uint32_t refs, int hint) {
  for (int i = 0; i < kMaxFds; ++i) {
    SyncObject& s = g_sync[kShared + (hint + i) % kMaxFds];
    uint32_t zero = 0;
    if (s.refs.load(std::memory_order_relaxed) == 0 && s.refs.compare_exchange_strong(zero, refs)) {
      destroyed(&s, sizeof s);
      return static_cast<uint32_t>(&s - g_sync) + 1;
    }
  }
  return 0;
}
uint32_t add_ref(uint32_t ref) {
  if (ref > kShared) g_sync[ref - 1].refs.fetch_add(1, std::memory_order_relaxed);
  return ref;
}
void drop_ref(uint32_t ref) {
  if (ref > kShared) g_sync[ref - 1].refs.fetch_sub(1, std::memory_order_relaxed);
}

// A use of fd by the program (read of its entry).
void used(int fd, uint64_t pc) {
  if (Descriptor* d = entry(fd)) program_read(&d->cell, sizeof d->cell, pc);
}
void acquire_fd(int fd) {
  if (Descriptor* d = entry(fd)) {
    if (uint32_t ref = d->sync.load(std::memory_order_acquire)) acquire(sync_id(ref));
  }
}
void release_fd(int fd) {
  if (Descriptor* d = entry(fd)) {
    if (uint32_t ref = d->sync.load(std::memory_order_acquire)) release(sync_id(ref));
    if (uint32_t ref = d->watcher.load(std::memory_order_acquire)) release(sync_id(ref));
  }
}

// fd was just created with sync object ref (a reference the caller owns):
// its entry's old history is cleared and the creating thread writes it.
void created(int fd, uint32_t ref, uint64_t pc) {
  Descriptor* d = entry(fd);
  if (d == nullptr || t_in_runtime) return drop_ref(ref);
  drop_ref(d->sync.exchange(ref, std::memory_order_acq_rel));
  drop_ref(d->watcher.exchange(0, std::memory_order_acq_rel));
  forget_range(&d->cell, sizeof d->cell);
  program_write(&d->cell, sizeof d->cell, pc);
}
// fd is about to be closed: a write of its entry (checked at once, against
// every use so far), then its history and sync object are dropped.
void closing(int fd, uint64_t pc) {
  Descriptor* d = entry(fd);
  if (d == nullptr || t_in_runtime) return;
  program_write(&d->cell, sizeof d->cell, pc);
  forget_range(&d->cell, sizeof d->cell);
  drop_ref(d->sync.exchange(0, std::memory_order_acq_rel));
  drop_ref(d->watcher.exchange(0, std::memory_order_acq_rel));
}
// The copy shares the original's sync object, and its epoll watcher (epoll
// watches the open file, which a write through either descriptor wakes).
void duplicated(int from, int to, uint64_t pc) {
  const Descriptor* d = entry(from);
  const uint32_t ref = d != nullptr ? d->sync.load(std::memory_order_acquire) : 0;
  created(to, add_ref(ref), pc);
  Descriptor* copy = entry(to);
  if (d != nullptr && copy != nullptr && !t_in_runtime) {
    drop_ref(copy->watcher.exchange(add_ref(d->watcher.load(std::memory_order_acquire)), std::memory_order_acq_rel));
  }
}

// 0 for a vector the kernel rejects (null, negative or above IOV_MAX
// entries): the real call then fails with EFAULT/EINVAL, and nothing of the
// program's memory is read here.
size_t iov_bytes(const struct iovec* iov, int n) {
  if (iov == nullptr || n <= 0 || n > IOV_MAX) return 0;
  size_t total = 0;
  for (int i = 0; i < n; ++i) total += iov[i].iov_len;
  return total;
}
// The first `bytes` bytes of the vector, as writes (data received) or reads.
void iov_access(const struct iovec* iov, int n, size_t bytes, bool write, uint64_t pc) {
  for (int i = 0; i < n && bytes != 0; ++i) {
    const size_t len = iov[i].iov_len < bytes ? iov[i].iov_len : bytes;
    program_access(iov[i].iov_base, len, write, pc);
    bytes -= len;
  }
}

// Input: a use of fd before the call; after it, the bytes received are
// written and the descriptor's object is acquired (also on end of file).
template <typename Call>
ssize_t input(int fd, uint64_t pc, Call call, void* buf) {
  used(fd, pc);
  const ssize_t r = call();
  if (r >= 0) acquire_fd(fd);
  if (r > 0 && buf != nullptr) program_write(buf, static_cast<size_t>(r), pc);
  return r;
}
// Output: a use of fd and a read of the whole buffer, then the release, all
// before the call (a reader may return before this call does).
template <typename Call>
ssize_t output(int fd, uint64_t pc, Call call, const void* buf, size_t n) {
  used(fd, pc);
  program_read(buf, n, pc);
  release_fd(fd);
  return call();
}
// The vectored forms (readv, preadv and its 64-bit and flags variants):
// input, then the bytes received written into the vector's buffers in order.
template <typename Call>
ssize_t vector_input(int fd, const struct iovec* iov, int n, uint64_t pc, Call call) {
  const ssize_t r = input(fd, pc, call, nullptr);
  if (r > 0) iov_access(iov, n, static_cast<size_t>(r), true, pc);
  return r;
}
// writev, pwritev and variants: the whole vector read, then output.
template <typename Call>
ssize_t vector_output(int fd, const struct iovec* iov, int n, uint64_t pc, Call call) {
  iov_access(iov, n, iov_bytes(iov, n), false, pc);
  return output(fd, pc, call, nullptr, 0);
}

}  // namespace

namespace raceaccel::rt {

std::optional<int> descriptor_at(uint64_t addr) {
  const auto base = reinterpret_cast<uint64_t>(&g_fds[0]);
  if (addr < base || addr >= base + sizeof g_fds) return std::nullopt;
  return static_cast<int>((addr - base) / sizeof(Descriptor));
}
void descriptor_used(int fd, uint64_t pc) { used(fd, pc); }
DescriptorTableLayout descriptor_table_layout() {
  return {reinterpret_cast<uint64_t>(&g_fds[0]), sizeof(Descriptor), kMaxFds};
}

}  // namespace raceaccel::rt

// ---- data --------------------------------------------------------------------
RACEACCEL_EXPORT ssize_t read(int fd, void* buf, size_t n) {
  return input(
      fd, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(read)(fd, buf, n); }, buf);
}
RACEACCEL_EXPORT ssize_t pread(int fd, void* buf, size_t n, off_t off) {
  return input(
      fd, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(pread)(fd, buf, n, off); }, buf);
}
RACEACCEL_EXPORT ssize_t pread64(int fd, void* buf, size_t n, off64_t off) {
  return input(
      fd, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(pread64)(fd, buf, n, off); }, buf);
}
RACEACCEL_EXPORT ssize_t recv(int fd, void* buf, size_t n, int flags) {
  return input(
      fd, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(recv)(fd, buf, n, flags); }, buf);
}
RACEACCEL_EXPORT ssize_t recvfrom(int fd, void* buf, size_t n, int flags, struct sockaddr* from, socklen_t* len) {
  return input(
      fd, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(recvfrom)(fd, buf, n, flags, from, len); }, buf);
}
RACEACCEL_EXPORT ssize_t readv(int fd, const struct iovec* iov, int n) {
  return vector_input(fd, iov, n, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(readv)(fd, iov, n); });
}
RACEACCEL_EXPORT ssize_t preadv(int fd, const struct iovec* iov, int n, off_t off) {
  return vector_input(fd, iov, n, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(preadv)(fd, iov, n, off); });
}
RACEACCEL_EXPORT ssize_t preadv64(int fd, const struct iovec* iov, int n, off64_t off) {
  return vector_input(fd, iov, n, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(preadv64)(fd, iov, n, off); });
}
RACEACCEL_EXPORT ssize_t preadv2(int fd, const struct iovec* iov, int n, off_t off, int flags) {
  return vector_input(fd, iov, n, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(preadv2)(fd, iov, n, off, flags); });
}
RACEACCEL_EXPORT ssize_t preadv64v2(int fd, const struct iovec* iov, int n, off64_t off, int flags) {
  return vector_input(fd, iov, n, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(preadv64v2)(fd, iov, n, off, flags); });
}
// glibc's eventfd_read/eventfd_write make their system calls inline: they
// reach neither read() nor write() here.
RACEACCEL_EXPORT int eventfd_read(int fd, eventfd_t* value) {
  const uint64_t pc = RACEACCEL_CALLER;
  used(fd, pc);
  const int r = RACEACCEL_REAL(eventfd_read)(fd, value);
  if (r == 0) {
    acquire_fd(fd);
    program_write(value, sizeof *value, pc);
  }
  return r;
}
// Several messages: each one received is written as recvmsg's is.
RACEACCEL_EXPORT int recvmmsg(int fd, struct mmsghdr* msgs, unsigned int n, int flags, struct timespec* timeout) {
  const uint64_t pc = RACEACCEL_CALLER;
  const auto r = static_cast<int>(input(
      fd, pc, [&] { return RACEACCEL_REAL(recvmmsg)(fd, msgs, n, flags, timeout); }, nullptr));
  for (int i = 0; i < r; ++i) {
    const struct msghdr& m = msgs[i].msg_hdr;
    iov_access(m.msg_iov, static_cast<int>(m.msg_iovlen), msgs[i].msg_len, true, pc);
    program_write(&msgs[i].msg_len, sizeof msgs[i].msg_len, pc);
  }
  return r;
}
RACEACCEL_EXPORT ssize_t recvmsg(int fd, struct msghdr* msg, int flags) {
  const uint64_t pc = RACEACCEL_CALLER;
  const ssize_t r = input(
      fd, pc, [&] { return RACEACCEL_REAL(recvmsg)(fd, msg, flags); }, nullptr);
  if (r > 0) iov_access(msg->msg_iov, static_cast<int>(msg->msg_iovlen), static_cast<size_t>(r), true, pc);
  return r;
}

RACEACCEL_EXPORT ssize_t write(int fd, const void* buf, size_t n) {
  return output(
      fd, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(write)(fd, buf, n); }, buf, n);
}
RACEACCEL_EXPORT ssize_t pwrite(int fd, const void* buf, size_t n, off_t off) {
  return output(
      fd, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(pwrite)(fd, buf, n, off); }, buf, n);
}
RACEACCEL_EXPORT ssize_t pwrite64(int fd, const void* buf, size_t n, off64_t off) {
  return output(
      fd, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(pwrite64)(fd, buf, n, off); }, buf, n);
}
RACEACCEL_EXPORT ssize_t send(int fd, const void* buf, size_t n, int flags) {
  return output(
      fd, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(send)(fd, buf, n, flags); }, buf, n);
}
RACEACCEL_EXPORT ssize_t sendto(int fd, const void* buf, size_t n, int flags, const struct sockaddr* to,
                                socklen_t len) {
  return output(
      fd, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(sendto)(fd, buf, n, flags, to, len); }, buf, n);
}
RACEACCEL_EXPORT ssize_t writev(int fd, const struct iovec* iov, int n) {
  return vector_output(fd, iov, n, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(writev)(fd, iov, n); });
}
RACEACCEL_EXPORT ssize_t pwritev(int fd, const struct iovec* iov, int n, off_t off) {
  return vector_output(fd, iov, n, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(pwritev)(fd, iov, n, off); });
}
RACEACCEL_EXPORT ssize_t pwritev64(int fd, const struct iovec* iov, int n, off64_t off) {
  return vector_output(fd, iov, n, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(pwritev64)(fd, iov, n, off); });
}
RACEACCEL_EXPORT ssize_t pwritev2(int fd, const struct iovec* iov, int n, off_t off, int flags) {
  return vector_output(fd, iov, n, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(pwritev2)(fd, iov, n, off, flags); });
}
RACEACCEL_EXPORT ssize_t pwritev64v2(int fd, const struct iovec* iov, int n, off64_t off, int flags) {
  return vector_output(fd, iov, n, RACEACCEL_CALLER,
                       [&] { return RACEACCEL_REAL(pwritev64v2)(fd, iov, n, off, flags); });
}
RACEACCEL_EXPORT int eventfd_write(int fd, eventfd_t value) {
  return static_cast<int>(output(
      fd, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(eventfd_write)(fd, value); }, nullptr, 0));
}
RACEACCEL_EXPORT int sendmmsg(int fd, struct mmsghdr* msgs, unsigned int n, int flags) {
  const uint64_t pc = RACEACCEL_CALLER;
  // A null vector is the kernel's to reject (EFAULT), not the runtime's to read.
  for (unsigned int i = 0; msgs != nullptr && i < n; ++i) {
    const struct msghdr& m = msgs[i].msg_hdr;
    const int parts = static_cast<int>(m.msg_iovlen);
    if (parts != 0) iov_access(m.msg_iov, parts, iov_bytes(m.msg_iov, parts), false, pc);
  }
  used(fd, pc);
  release_fd(fd);
  const int r = RACEACCEL_REAL(sendmmsg)(fd, msgs, n, flags);
  for (int i = 0; i < r; ++i) program_write(&msgs[i].msg_len, sizeof msgs[i].msg_len, pc);
  return r;
}
RACEACCEL_EXPORT ssize_t sendmsg(int fd, const struct msghdr* msg, int flags) {
  const uint64_t pc = RACEACCEL_CALLER;
  const int n = msg == nullptr ? 0 : static_cast<int>(msg->msg_iovlen);
  if (n != 0) iov_access(msg->msg_iov, n, iov_bytes(msg->msg_iov, n), false, pc);
  return output(
      fd, pc, [&] { return RACEACCEL_REAL(sendmsg)(fd, msg, flags); }, nullptr, 0);
}

// ---- creation ----------------------------------------------------------------
RACEACCEL_EXPORT int pipe(int fds[2]) {
  const int r = RACEACCEL_REAL(pipe)(fds);
  if (r == 0 && !t_in_runtime) {
    const uint32_t ref = new_sync(2, fds[0]);
    created(fds[0], ref, RACEACCEL_CALLER);
    created(fds[1], ref, RACEACCEL_CALLER);
  }
  return r;
}
RACEACCEL_EXPORT int pipe2(int fds[2], int flags) {
  const int r = RACEACCEL_REAL(pipe2)(fds, flags);
  if (r == 0 && !t_in_runtime) {
    const uint32_t ref = new_sync(2, fds[0]);
    created(fds[0], ref, RACEACCEL_CALLER);
    created(fds[1], ref, RACEACCEL_CALLER);
  }
  return r;
}
RACEACCEL_EXPORT int socketpair(int domain, int type, int protocol, int fds[2]) {
  const int r = RACEACCEL_REAL(socketpair)(domain, type, protocol, fds);
  if (r == 0 && !t_in_runtime) {
    const uint32_t ref = new_sync(2, fds[0]);
    created(fds[0], ref, RACEACCEL_CALLER);
    created(fds[1], ref, RACEACCEL_CALLER);
  }
  return r;
}

namespace {
// open()'s mode argument exists only with O_CREAT or O_TMPFILE.
bool has_mode(int flags) { return (flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE; }
int file_opened(int fd, uint64_t pc) {
  if (fd >= 0) created(fd, shared_ref(kFileSync), pc);
  return fd;
}
}  // namespace

#define RACEACCEL_OPEN(name, ...)                                    \
  RACEACCEL_EXPORT int name(__VA_ARGS__, int flags, ...) {           \
    mode_t mode = 0;                                                 \
    if (has_mode(flags)) {                                           \
      va_list ap;                                                    \
      va_start(ap, flags);                                           \
      mode = static_cast<mode_t>(va_arg(ap, int));                   \
      va_end(ap);                                                    \
    }                                                                \
    return file_opened(RACEACCEL_OPEN_CALL(name), RACEACCEL_CALLER); \
  }
#define RACEACCEL_OPEN_CALL(name) RACEACCEL_REAL(name)(path, flags, mode)
RACEACCEL_OPEN(open, const char* path)
RACEACCEL_OPEN(open64, const char* path)
#undef RACEACCEL_OPEN_CALL
#define RACEACCEL_OPEN_CALL(name) RACEACCEL_REAL(name)(dirfd, path, flags, mode)
RACEACCEL_OPEN(openat, int dirfd, const char* path)
RACEACCEL_OPEN(openat64, int dirfd, const char* path)
#undef RACEACCEL_OPEN_CALL
#undef RACEACCEL_OPEN
RACEACCEL_EXPORT int creat(const char* path, mode_t mode) {
  return file_opened(RACEACCEL_REAL(creat)(path, mode), RACEACCEL_CALLER);
}
RACEACCEL_EXPORT int creat64(const char* path, mode_t mode) {
  return file_opened(RACEACCEL_REAL(creat64)(path, mode), RACEACCEL_CALLER);
}
// stdio opens and closes its descriptors inside libc: follow them here so a
// FILE's descriptor is a file, and its number is free again after fclose().
RACEACCEL_EXPORT FILE* fopen(const char* path, const char* mode) {
  FILE* f = RACEACCEL_REAL(fopen)(path, mode);
  if (f != nullptr) file_opened(fileno(f), RACEACCEL_CALLER);
  return f;
}
RACEACCEL_EXPORT FILE* fopen64(const char* path, const char* mode) {
  FILE* f = RACEACCEL_REAL(fopen64)(path, mode);
  if (f != nullptr) file_opened(fileno(f), RACEACCEL_CALLER);
  return f;
}
RACEACCEL_EXPORT int fclose(FILE* f) {
  if (f != nullptr) closing(fileno(f), RACEACCEL_CALLER);
  return RACEACCEL_REAL(fclose)(f);
}

RACEACCEL_EXPORT int socket(int domain, int type, int protocol) {
  const int fd = RACEACCEL_REAL(socket)(domain, type, protocol);
  if (fd >= 0) created(fd, 0, RACEACCEL_CALLER);  // maybe UDP: no happens-before
  return fd;
}
RACEACCEL_EXPORT int connect(int fd, const struct sockaddr* addr, socklen_t len) {
  const uint64_t pc = RACEACCEL_CALLER;
  used(fd, pc);
  release(sync_id(shared_ref(kConnectSync)));
  const int r = RACEACCEL_REAL(connect)(fd, addr, len);
  if (r == 0) {
    if (Descriptor* d = entry(fd); d != nullptr && !t_in_runtime) {
      drop_ref(d->sync.exchange(shared_ref(kSocketSync), std::memory_order_acq_rel));
    }
  }
  return r;
}
RACEACCEL_EXPORT int accept(int fd, struct sockaddr* addr, socklen_t* len) {
  const uint64_t pc = RACEACCEL_CALLER;
  used(fd, pc);
  const int r = RACEACCEL_REAL(accept)(fd, addr, len);
  if (r >= 0) {
    acquire(sync_id(shared_ref(kConnectSync)));
    created(r, shared_ref(kSocketSync), pc);
  }
  return r;
}
RACEACCEL_EXPORT int accept4(int fd, struct sockaddr* addr, socklen_t* len, int flags) {
  const uint64_t pc = RACEACCEL_CALLER;
  used(fd, pc);
  const int r = RACEACCEL_REAL(accept4)(fd, addr, len, flags);
  if (r >= 0) {
    acquire(sync_id(shared_ref(kConnectSync)));
    created(r, shared_ref(kSocketSync), pc);
  }
  return r;
}

// An eventfd is its own sync object: a write to it happens before the read
// that returns the count.
RACEACCEL_EXPORT int eventfd(unsigned initial, int flags) noexcept {
  const int fd = RACEACCEL_REAL(eventfd)(initial, flags);
  if (fd >= 0 && !t_in_runtime) created(fd, new_sync(1, fd), RACEACCEL_CALLER);
  return fd;
}

// ---- epoll ----------------------------------------------------------------------
// As ThreadSanitizer models it: an epoll descriptor has a sync object of its
// own; adding or modifying a watch releases it (the watch's data, often a
// pointer to an object the thread set up, is handed to the waiter), every
// write to a watched descriptor releases it too (the write is what makes
// the wait return), and a wait that returns events acquires it, after which
// the kernel's events are written to the caller's array.
RACEACCEL_EXPORT int epoll_create(int size) noexcept {
  const int fd = RACEACCEL_REAL(epoll_create)(size);
  if (fd >= 0 && !t_in_runtime) created(fd, new_sync(1, fd), RACEACCEL_CALLER);
  return fd;
}
RACEACCEL_EXPORT int epoll_create1(int flags) noexcept {
  const int fd = RACEACCEL_REAL(epoll_create1)(flags);
  if (fd >= 0 && !t_in_runtime) created(fd, new_sync(1, fd), RACEACCEL_CALLER);
  return fd;
}
RACEACCEL_EXPORT int epoll_ctl(int epfd, int op, int fd, struct epoll_event* event) noexcept {
  const uint64_t pc = RACEACCEL_CALLER;
  used(epfd, pc);
  used(fd, pc);
  if (event != nullptr) program_read(event, sizeof *event, pc);
  if (op == EPOLL_CTL_ADD || op == EPOLL_CTL_MOD) release_fd(epfd);
  const int r = RACEACCEL_REAL(epoll_ctl)(epfd, op, fd, event);
  const Descriptor* ep = entry(epfd);
  Descriptor* watched = entry(fd);
  if (r == 0 && ep != nullptr && watched != nullptr && !t_in_runtime) {
    const uint32_t ref = op == EPOLL_CTL_DEL ? 0 : add_ref(ep->sync.load(std::memory_order_acquire));
    drop_ref(watched->watcher.exchange(ref, std::memory_order_acq_rel));
  }
  return r;
}
namespace {
template <typename Call>
int epoll_waited(int epfd, struct epoll_event* events, uint64_t pc, Call call) {
  used(epfd, pc);
  const int r = call();
  if (r > 0) {
    acquire_fd(epfd);
    program_write(events, static_cast<size_t>(r) * sizeof *events, pc);
  }
  return r;
}
}  // namespace
RACEACCEL_EXPORT int epoll_wait(int epfd, struct epoll_event* events, int max, int timeout) {
  return epoll_waited(epfd, events, RACEACCEL_CALLER,
                      [&] { return RACEACCEL_REAL(epoll_wait)(epfd, events, max, timeout); });
}
RACEACCEL_EXPORT int epoll_pwait(int epfd, struct epoll_event* events, int max, int timeout, const sigset_t* mask) {
  return epoll_waited(epfd, events, RACEACCEL_CALLER,
                      [&] { return RACEACCEL_REAL(epoll_pwait)(epfd, events, max, timeout, mask); });
}
RACEACCEL_EXPORT int epoll_pwait2(int epfd, struct epoll_event* events, int max, const struct timespec* timeout,
                                  const sigset_t* mask) {
  return epoll_waited(epfd, events, RACEACCEL_CALLER,
                      [&] { return RACEACCEL_REAL(epoll_pwait2)(epfd, events, max, timeout, mask); });
}

// ---- POSIX message queues -----------------------------------------------------
// A queue descriptor is a descriptor with a sync object of its own: sending
// releases it, receiving acquires it (a handoff, as a pipe's), and the
// message's bytes are read by the sender and written for the receiver.
RACEACCEL_EXPORT mqd_t mq_open(const char* name, int flags, ...) {
  mode_t mode = 0;
  struct mq_attr* attr = nullptr;
  if ((flags & O_CREAT) != 0) {
    va_list ap;
    va_start(ap, flags);
    mode = static_cast<mode_t>(va_arg(ap, unsigned int));
    attr = va_arg(ap, struct mq_attr*);
    va_end(ap);
  }
  const mqd_t q =
      (flags & O_CREAT) != 0 ? RACEACCEL_REAL(mq_open)(name, flags, mode, attr) : RACEACCEL_REAL(mq_open)(name, flags);
  if (q >= 0 && !t_in_runtime) created(q, new_sync(1, q), RACEACCEL_CALLER);
  return q;
}
RACEACCEL_EXPORT int mq_close(mqd_t q) noexcept {
  closing(q, RACEACCEL_CALLER);
  return RACEACCEL_REAL(mq_close)(q);
}
RACEACCEL_EXPORT int mq_send(mqd_t q, const char* message, size_t n, unsigned int priority) {
  return static_cast<int>(output(
      q, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(mq_send)(q, message, n, priority); }, message, n));
}
RACEACCEL_EXPORT int mq_timedsend(mqd_t q, const char* message, size_t n, unsigned int priority,
                                  const struct timespec* timeout) {
  return static_cast<int>(output(
      q, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(mq_timedsend)(q, message, n, priority, timeout); }, message, n));
}
RACEACCEL_EXPORT ssize_t mq_receive(mqd_t q, char* message, size_t n, unsigned int* priority) {
  return input(
      q, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(mq_receive)(q, message, n, priority); }, message);
}
RACEACCEL_EXPORT ssize_t mq_timedreceive(mqd_t q, char* message, size_t n, unsigned int* priority,
                                         const struct timespec* timeout) {
  return input(
      q, RACEACCEL_CALLER, [&] { return RACEACCEL_REAL(mq_timedreceive)(q, message, n, priority, timeout); }, message);
}

// ---- duplication and close -----------------------------------------------------
RACEACCEL_EXPORT int dup(int fd) {
  const uint64_t pc = RACEACCEL_CALLER;
  used(fd, pc);
  const int r = RACEACCEL_REAL(dup)(fd);
  if (r >= 0 && !t_in_runtime) duplicated(fd, r, pc);
  return r;
}
// dup2/dup3 close `to` when it is open: after a successful call, `to` is
// closed (a write of its entry) and then a copy of fd. A failed call leaves
// `to` as it was.
namespace {
void replaced(int fd, int to, uint64_t pc) {
  if (fd == to || t_in_runtime) return;
  closing(to, pc);
  duplicated(fd, to, pc);
}
}  // namespace
RACEACCEL_EXPORT int dup2(int fd, int to) noexcept {
  const uint64_t pc = RACEACCEL_CALLER;
  used(fd, pc);
  const int r = RACEACCEL_REAL(dup2)(fd, to);
  if (r >= 0) replaced(fd, to, pc);
  return r;
}
RACEACCEL_EXPORT int dup3(int fd, int to, int flags) noexcept {
  const uint64_t pc = RACEACCEL_CALLER;
  used(fd, pc);
  const int r = RACEACCEL_REAL(dup3)(fd, to, flags);
  if (r >= 0) replaced(fd, to, pc);
  return r;
}
// fcntl: F_DUPFD and F_DUPFD_CLOEXEC duplicate; every command is a use. The
// third argument is taken as a pointer-sized word, as glibc itself does.
namespace {
int fcntl_common(int (*real)(int, int, ...), int fd, int cmd, void* arg, uint64_t pc) {
  used(fd, pc);
  const int r = real(fd, cmd, arg);
  if (r >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) && !t_in_runtime) duplicated(fd, r, pc);
  return r;
}
}  // namespace
RACEACCEL_EXPORT int fcntl(int fd, int cmd, ...) {
  va_list ap;
  va_start(ap, cmd);
  void* arg = va_arg(ap, void*);
  va_end(ap);
  return fcntl_common(RACEACCEL_REAL(fcntl), fd, cmd, arg, RACEACCEL_CALLER);
}
RACEACCEL_EXPORT int fcntl64(int fd, int cmd, ...) {
  va_list ap;
  va_start(ap, cmd);
  void* arg = va_arg(ap, void*);
  va_end(ap);
  return fcntl_common(RACEACCEL_REAL(fcntl64), fd, cmd, arg, RACEACCEL_CALLER);
}

RACEACCEL_EXPORT int close(int fd) {
  closing(fd, RACEACCEL_CALLER);
  return RACEACCEL_REAL(close)(fd);
}

// ---- <sanitizer/linux_syscall_hooks.h> ---------------------------------------------
// A program making a raw system call announces it with these hooks; those
// with descriptor or buffer semantics mean what the libc functions above do
// (every other hook is a no-op, syscall_hooks.cpp). Arguments come as longs.
namespace {
template <typename T>
T* as_ptr(long v) {
  return reinterpret_cast<T*>(v);
}
void input_done(long res, long fd) {
  if (res >= 0) acquire_fd(static_cast<int>(fd));
}
void pipe_done(long res, long fds, uint64_t pc) {
  if (res != 0 || t_in_runtime) return;
  const int* p = as_ptr<int>(fds);
  const uint32_t ref = new_sync(2, p[0]);
  created(p[0], ref, pc);
  created(p[1], ref, pc);
}
}  // namespace

RACEACCEL_EXPORT void __sanitizer_syscall_pre_impl_read(long fd, long, long) {
  used(static_cast<int>(fd), RACEACCEL_CALLER);
}
RACEACCEL_EXPORT void __sanitizer_syscall_post_impl_read(long res, long fd, long buf, long) {
  input_done(res, fd);
  if (res > 0) program_write(as_ptr<void>(buf), static_cast<size_t>(res), RACEACCEL_CALLER);
}
RACEACCEL_EXPORT void __sanitizer_syscall_pre_impl_pread64(long fd, long, long, long) {
  used(static_cast<int>(fd), RACEACCEL_CALLER);
}
RACEACCEL_EXPORT void __sanitizer_syscall_post_impl_pread64(long res, long fd, long buf, long, long) {
  input_done(res, fd);
  if (res > 0) program_write(as_ptr<void>(buf), static_cast<size_t>(res), RACEACCEL_CALLER);
}
RACEACCEL_EXPORT void __sanitizer_syscall_pre_impl_readv(long fd, long, long) {
  used(static_cast<int>(fd), RACEACCEL_CALLER);
}
RACEACCEL_EXPORT void __sanitizer_syscall_post_impl_readv(long res, long fd, long vec, long n) {
  input_done(res, fd);
  if (res > 0)
    iov_access(as_ptr<const iovec>(vec), static_cast<int>(n), static_cast<size_t>(res), true, RACEACCEL_CALLER);
}
RACEACCEL_EXPORT void __sanitizer_syscall_pre_impl_write(long fd, long buf, long n) {
  output(
      static_cast<int>(fd), RACEACCEL_CALLER, [] { return ssize_t{0}; }, as_ptr<const void>(buf),
      static_cast<size_t>(n));
}
RACEACCEL_EXPORT void __sanitizer_syscall_pre_impl_pwrite64(long fd, long buf, long n, long) {
  output(
      static_cast<int>(fd), RACEACCEL_CALLER, [] { return ssize_t{0}; }, as_ptr<const void>(buf),
      static_cast<size_t>(n));
}
RACEACCEL_EXPORT void __sanitizer_syscall_pre_impl_writev(long fd, long vec, long n) {
  const uint64_t pc = RACEACCEL_CALLER;
  const auto* iov = as_ptr<const iovec>(vec);
  iov_access(iov, static_cast<int>(n), iov_bytes(iov, static_cast<int>(n)), false, pc);
  output(
      static_cast<int>(fd), pc, [] { return ssize_t{0}; }, nullptr, 0);
}
RACEACCEL_EXPORT void __sanitizer_syscall_pre_impl_close(long fd) { closing(static_cast<int>(fd), RACEACCEL_CALLER); }
RACEACCEL_EXPORT void __sanitizer_syscall_post_impl_pipe(long res, long fds) { pipe_done(res, fds, RACEACCEL_CALLER); }
RACEACCEL_EXPORT void __sanitizer_syscall_post_impl_pipe2(long res, long fds, long) {
  pipe_done(res, fds, RACEACCEL_CALLER);
}

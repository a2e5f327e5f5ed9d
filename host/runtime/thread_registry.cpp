#include "runtime/thread_registry.hpp"

namespace raceaccel::rt {

ThreadId ThreadRegistry::create(ThreadId parent, std::vector<uint64_t> create_stack) {
  InternalLock lock(mu_);
  ThreadInfo info;
  info.parent = parent;
  info.create_stack = std::move(create_stack);
  threads_.push_back(std::move(info));
  return static_cast<ThreadId>(threads_.size() - 1);
}

ThreadId ThreadRegistry::create_foreign() {
  InternalLock lock(mu_);
  threads_.push_back({});
  return static_cast<ThreadId>(threads_.size() - 1);
}

void ThreadRegistry::started(ThreadId tid, pid_t os_tid, uint64_t stack_lo, uint64_t stack_hi, uint64_t tls_lo,
                             uint64_t tls_hi) {
  InternalLock lock(mu_);
  if (tid >= threads_.size()) return;
  ThreadInfo& t = threads_[tid];
  t.os_tid = os_tid;
  t.stack_lo = stack_lo;
  t.stack_hi = stack_hi;
  t.tls_lo = tls_lo;
  t.tls_hi = tls_hi;
}

void ThreadRegistry::finished(ThreadId tid, uint64_t recorded) {
  InternalLock lock(mu_);
  if (tid < threads_.size() && !threads_[tid].finished) {
    threads_[tid].finished = true;
    threads_[tid].finished_at = recorded;
  }
}

std::vector<ThreadInfo> ThreadRegistry::all() {
  InternalLock lock(mu_);
  return {threads_.begin(), threads_.end()};
}

void ThreadRegistry::set_name(ThreadId tid, std::string name) {
  InternalLock lock(mu_);
  if (tid < threads_.size()) threads_[tid].name = std::move(name);
}

std::optional<ThreadInfo> ThreadRegistry::info(ThreadId tid) {
  InternalLock lock(mu_);
  if (tid >= threads_.size()) return std::nullopt;
  return threads_[tid];
}

std::optional<MemoryOwner> ThreadRegistry::owner_of(uint64_t addr) {
  InternalLock lock(mu_);
  // A finished thread's stack may since belong to a newer thread: prefer the
  // running ones, then the most recent.
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = threads_.size(); i-- > 0;) {
      const ThreadInfo& t = threads_[i];
      if (t.finished != (pass == 1)) continue;
      if (addr >= t.tls_lo && addr < t.tls_hi) return MemoryOwner{static_cast<ThreadId>(i), true};
      if (addr >= t.stack_lo && addr < t.stack_hi) return MemoryOwner{static_cast<ThreadId>(i), false};
    }
  }
  return std::nullopt;
}

uint32_t ThreadRegistry::count() {
  InternalLock lock(mu_);
  return static_cast<uint32_t>(threads_.size());
}

void ThreadRegistry::remember(pthread_t handle, ThreadId tid) {
  InternalLock lock(mu_);
  handles_[handle] = tid;
}

std::optional<ThreadId> ThreadRegistry::take(pthread_t handle) {
  InternalLock lock(mu_);
  auto it = handles_.find(handle);
  if (it == handles_.end()) return std::nullopt;
  const ThreadId tid = it->second;
  handles_.erase(it);
  if (tid < threads_.size()) threads_[tid].joined = true;
  return tid;
}

std::vector<ThreadId> ThreadRegistry::finished_unjoined() {
  InternalLock lock(mu_);
  std::vector<ThreadId> tids;
  for (ThreadId tid = 0; tid < threads_.size(); ++tid) {
    if (threads_[tid].finished && !threads_[tid].joined) tids.push_back(tid);
  }
  return tids;
}

void ThreadRegistry::forget(pthread_t handle) {
  InternalLock lock(mu_);
  handles_.erase(handle);
}

}  // namespace raceaccel::rt

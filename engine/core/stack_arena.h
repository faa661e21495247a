#pragma once
// A protobuf arena whose first block is the object's own storage: put on the stack, messages
// built or parsed on it for one short task cost few heap allocations, if any, and are all dropped
// at once with it. A task that outgrows the block takes more blocks from the heap.
#include <google/protobuf/arena.h>

#include <cstddef>

namespace plateau::engine {

template <size_t kBytes>
class StackArena {
 public:
  StackArena() : arena_(Options(block_)) {}
  StackArena(const StackArena&) = delete;
  StackArena& operator=(const StackArena&) = delete;

  google::protobuf::Arena* get() { return &arena_; }

 private:
  static google::protobuf::ArenaOptions Options(char* block) {
    google::protobuf::ArenaOptions options;
    options.initial_block = block;
    options.initial_block_size = kBytes;
    return options;
  }

  // Declared first: the arena is built on it and destroyed before it.
  alignas(std::max_align_t) char block_[kBytes];
  google::protobuf::Arena arena_;
};

}  // namespace plateau::engine

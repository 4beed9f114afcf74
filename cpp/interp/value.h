// What the interpreter computes with: tensors (a shape, an element type and a refcounted byte
// buffer), tuples and tokens.
//
// Buffers are shared, not copied: a reshape is the same buffer under new dims, a value used
// twice is one buffer held twice. An op may update a buffer in place only when it holds the
// only reference (Tensor::unique()); otherwise it copies first. Every buffer is counted against
// the run's memory cap when it is allocated, and released when its last holder goes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "hlo/element_type.h"

namespace rl::interp {

using hlo::ElementType;

// The bytes of live tensors of one run, against a cap.
class Memory {
 public:
  explicit Memory(std::size_t cap) : cap_(cap) {}
  bool reserve(std::size_t bytes) {
    if (bytes > cap_ - live_) return false;
    live_ += bytes;
    if (live_ > peak_) peak_ = live_;
    return true;
  }
  void release(std::size_t bytes) { live_ -= bytes; }
  std::size_t live() const { return live_; }
  std::size_t peak() const { return peak_; }
  std::size_t cap() const { return cap_; }

 private:
  std::size_t cap_, live_ = 0, peak_ = 0;
};

// One tensor's bytes: a failed allocation is a null, never an abort. The bytes of a small tensor
// (a scalar, a few elements: loop counters, indices, rng state) sit inside the Storage, and the
// Storage inside its shared_ptr's block: one allocation where there were three (bytes, Storage,
// control block), which was a quarter of a scalar-heavy while loop's time.
class Storage {
  struct Key {};  // make_shared needs a public constructor; only allocate can name Key

 public:
  static constexpr std::size_t kInlineBytes = 32;
  // Null when the cap or the heap refuses `bytes`.
  static std::shared_ptr<Storage> allocate(const std::shared_ptr<Memory>& memory,
                                           std::size_t bytes);
  explicit Storage(Key) {}
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  std::uint8_t* data() { return data_; }
  const std::uint8_t* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }

 private:
  std::uint8_t* data_ = nullptr;
  std::size_t bytes_ = 0;
  std::shared_ptr<Memory> memory_;
  alignas(16) std::uint8_t inline_[kInlineBytes];  // the bytes when they fit (v128-aligned)
};

struct Tensor {
  ElementType type = ElementType::Invalid;
  std::vector<std::int64_t> dims;
  std::shared_ptr<Storage> storage;

  std::int64_t elements() const {
    std::int64_t n = 1;
    for (auto d : dims) n *= d;
    return n;
  }
  std::size_t bytes() const {
    return static_cast<std::size_t>(elements()) *
           static_cast<std::size_t>(hlo::element_bytes(type));
  }
  std::uint8_t* data() { return storage ? storage->data() : nullptr; }
  const std::uint8_t* data() const { return storage ? storage->data() : nullptr; }
  template <class T>
  T* as() {
    return reinterpret_cast<T*>(data());
  }
  template <class T>
  const T* as() const {
    return reinterpret_cast<const T*>(data());
  }
  // No one else holds the buffer: it may be written in place.
  bool unique() const { return storage && storage.use_count() == 1; }
};

struct Value;

// A tuple's elements, shared by every copy of the tuple: a tuple is never changed once made, so a
// copy (a while loop's carried state handed to its condition, a call's arguments) is one
// reference, not a copy of each element. push_back on a shared list copies it first. A tensor
// inside a tuple is never updated in place: an op reads it through a copy in its frame slot, so
// its buffer is held twice (Tensor::unique is false) while the tuple lives.
class TupleItems {
 public:
  std::size_t size() const;
  bool empty() const { return size() == 0; }
  const Value& operator[](std::size_t i) const;
  const Value* begin() const;
  const Value* end() const;
  void reserve(std::size_t n);
  void push_back(Value v);
  // The elements, moved out when this is their only holder, else copied; this list is then empty.
  std::vector<Value> take();

 private:
  std::shared_ptr<std::vector<Value>> items_;
  std::vector<Value>& own();
};

struct Value {
  enum class Kind : std::uint8_t { None, Tensor, Tuple, Token };
  Kind kind = Kind::None;
  Tensor tensor;
  TupleItems tuple;

  static Value of(Tensor t) {
    Value v;
    v.kind = Kind::Tensor;
    v.tensor = std::move(t);
    return v;
  }
  static Value token() {
    Value v;
    v.kind = Kind::Token;
    return v;
  }
  bool is_tensor() const { return kind == Kind::Tensor; }
};

inline std::size_t TupleItems::size() const { return items_ ? items_->size() : 0; }
inline const Value& TupleItems::operator[](std::size_t i) const { return (*items_)[i]; }
inline const Value* TupleItems::begin() const { return items_ ? items_->data() : nullptr; }
inline const Value* TupleItems::end() const {
  return items_ ? items_->data() + items_->size() : nullptr;
}
inline std::vector<Value>& TupleItems::own() {
  if (!items_)
    items_ = std::make_shared<std::vector<Value>>();
  else if (items_.use_count() > 1)
    items_ = std::make_shared<std::vector<Value>>(*items_);
  return *items_;
}
inline void TupleItems::reserve(std::size_t n) { own().reserve(n); }
inline void TupleItems::push_back(Value v) { own().push_back(std::move(v)); }
inline std::vector<Value> TupleItems::take() {
  std::vector<Value> out;
  if (items_) out = items_.use_count() == 1 ? std::move(*items_) : *items_;
  items_.reset();
  return out;
}

}  // namespace rl::interp

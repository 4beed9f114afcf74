// A hash map from names (views into the source text) to small values, for the parsers' symbol
// tables: open addressing with linear probing, one flat array, no allocation per name. A module
// of millions of ops defines millions of names; std::unordered_map would allocate a node for each.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace rl::hlo {

// A hash of a short name, 8 bytes at a time.
inline std::uint32_t name_hash(std::string_view s) {
  const char* p = s.data();
  std::size_t n = s.size();
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ (n * 0xC2B2AE3D27D4EB4Full);
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * 0xFF51AFD7ED558CCDull;
  }
  h ^= h >> 29;
  h *= 0xC4CEB9FE1A85EC53ull;
  h ^= h >> 32;
  return static_cast<std::uint32_t>(h);
}

template <class V>
class NameMap {
 public:
  // The value of `name`, or null.
  const V* find(std::string_view name) const {
    if (used_ == 0) return nullptr;
    const std::uint32_t h = name_hash(name);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (!s.ptr) return nullptr;
      if (s.hash == h && same(s, name)) return &s.value;
    }
  }
  V* find(std::string_view name) {
    return const_cast<V*>(static_cast<const NameMap*>(this)->find(name));
  }
  // Adds `name` unless it is there; false (and the old value kept) when it was.
  bool insert(std::string_view name, const V& value) {
    Slot* s = slot_for(name);
    if (s->ptr) return false;
    fill(s, name, value);
    return true;
  }
  // The value of `name`, added (value-initialized) if it is not there; *had says which.
  V& get_or_add(std::string_view name, bool* had) {
    Slot* s = slot_for(name);
    *had = s->ptr != nullptr;
    if (!*had) fill(s, name, V{});
    return s->value;
  }
  // Adds or replaces.
  void set(std::string_view name, const V& value) {
    Slot* s = slot_for(name);
    if (s->ptr) s->value = value;
    else fill(s, name, value);
  }
  void erase(std::string_view name) {
    if (used_ == 0) return;
    const std::uint32_t h = name_hash(name);
    std::size_t i = h & mask_;
    for (;; i = (i + 1) & mask_) {
      if (!slots_[i].ptr) return;
      if (slots_[i].hash == h && same(slots_[i], name)) break;
    }
    // Backward-shift deletion: later slots of the probe chain move into the hole.
    std::size_t hole = i;
    for (std::size_t j = (i + 1) & mask_; slots_[j].ptr; j = (j + 1) & mask_) {
      const std::size_t home = slots_[j].hash & mask_;
      // Slot j may move to the hole when its home is not in the cyclic range (hole, j].
      const bool stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
      if (!stays) {
        slots_[hole] = slots_[j];
        hole = j;
      }
    }
    slots_[hole] = Slot();
    --used_;
  }
  // Empties the map; a table much larger than what it held shrinks, so that clearing it for
  // each of many small functions stays cheap.
  void clear() {
    if (used_ == 0) return;
    if (slots_.size() > 1024 && used_ * 8 < slots_.size()) {
      std::vector<Slot>().swap(slots_);
      mask_ = 0;
    } else {
      std::fill(slots_.begin(), slots_.end(), Slot());
    }
    used_ = 0;
  }
  // Room for `n` names without growing.
  void reserve(std::size_t n) {
    if (n * 4 > slots_.size() * 3) rehash(capacity_for(n));
  }
  std::size_t size() const { return used_; }

 private:
  struct Slot {
    const char* ptr = nullptr;  // null: empty
    std::uint32_t size = 0;
    std::uint32_t hash = 0;
    V value{};
  };
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t used_ = 0;

  static constexpr const char* kEmptyName = "";
  static bool same(const Slot& s, std::string_view name) {
    return s.size == name.size() && std::memcmp(s.ptr, name.data(), name.size()) == 0;
  }
  static std::size_t capacity_for(std::size_t n) {
    std::size_t c = 16;
    while (c * 3 < n * 4 + 4) c *= 2;
    return c;
  }
  void fill(Slot* s, std::string_view name, const V& value) {
    s->ptr = name.data() ? name.data() : kEmptyName;
    s->size = static_cast<std::uint32_t>(name.size());
    s->hash = name_hash(name);
    s->value = value;
    ++used_;
  }
  // The slot holding `name`, or the empty slot where it would go (after growing if needed).
  Slot* slot_for(std::string_view name) {
    if ((used_ + 1) * 4 > slots_.size() * 3) rehash(capacity_for(used_ + 1));
    const std::uint32_t h = name_hash(name);
    for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (!s.ptr || (s.hash == h && same(s, name))) return &s;
    }
  }
  void rehash(std::size_t capacity) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(capacity, Slot());
    mask_ = capacity - 1;
    for (const Slot& s : old) {
      if (!s.ptr) continue;
      std::size_t i = s.hash & mask_;
      while (slots_[i].ptr) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }
};

}  // namespace rl::hlo

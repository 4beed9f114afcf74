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
    if (s->ptr)
      s->value = value;
    else
      fill(s, name, value);
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

// The parsers' symbol tables: NameMap's interface, with names that end in a number ("%123",
// "%arg0", "v17", "add.3") kept in a vector per prefix, indexed by the number. Programs number
// their values in order, so a million definitions and their uses touch memory in order, where
// hashing each name would touch a random place of a table larger than the caches (measured in
// wasm: the symbol table was a tenth of the parse of a 100 MB module). Other names (and numbers
// past what a vector should hold, or with a leading zero) go to a NameMap.
template <class V>
class SymbolTable {
 public:
  const V* find(std::string_view name) const {
    std::string_view head;
    std::uint32_t number = 0;
    if (split(name, &head, &number)) {
      if (const std::uint32_t* p = prefixes_.find(head)) {
        const Dense& d = dense_[*p];
        if (number < d.high && d.has[number]) return &d.values[number];
      }
    }
    return other_.size() ? other_.find(name) : nullptr;
  }
  V* find(std::string_view name) {
    return const_cast<V*>(static_cast<const SymbolTable*>(this)->find(name));
  }
  // Adds `name` unless it is there; false (and the old value kept) when it was.
  bool insert(std::string_view name, const V& value) {
    bool had = false;
    V& v = get_or_add(name, &had);
    if (!had) v = value;
    return !had;
  }
  // The value of `name`, added (value-initialized) if it is not there; *had says which.
  V& get_or_add(std::string_view name, bool* had) {
    std::string_view head;
    std::uint32_t number = 0;
    if (split(name, &head, &number)) {
      std::uint32_t p = 0;
      if (const std::uint32_t* known = prefixes_.find(head)) {
        p = *known;
      } else {
        p = static_cast<std::uint32_t>(dense_.size());
        prefixes_.insert(head, p);
        dense_.emplace_back();
      }
      Dense& d = dense_[p];
      if (number < d.high && d.has[number]) {
        *had = true;
        return d.values[number];
      }
      // A number the vector may hold: below what it has room for, or at most a few times
      // what it holds (a name of another scheme, "fusion.98765432", goes to the map).
      const bool fits = number < d.has.size() || number < std::max<std::size_t>(4096, 4 * d.count);
      if (fits && !(other_.size() && other_.find(name))) {
        if (number >= d.has.size()) {
          const std::size_t n = std::max<std::size_t>(number + 1, 2 * d.has.size());
          d.has.resize(n, false);
          d.values.resize(n);
        }
        d.has[number] = true;
        d.high = std::max<std::size_t>(d.high, number + 1);
        ++d.count;
        *had = false;
        d.values[number] = V{};
        return d.values[number];
      }
    }
    return other_.get_or_add(name, had);
  }
  void set(std::string_view name, const V& value) {
    bool had = false;
    get_or_add(name, &had) = value;
  }
  void erase(std::string_view name) {
    std::string_view head;
    std::uint32_t number = 0;
    if (split(name, &head, &number)) {
      if (const std::uint32_t* p = prefixes_.find(head)) {
        Dense& d = dense_[*p];
        if (number < d.high && d.has[number]) {
          d.has[number] = false;
          --d.count;
          return;
        }
      }
    }
    other_.erase(name);
  }
  // Empties the table, keeping its vectors' room for the next function.
  void clear() {
    for (Dense& d : dense_) {
      std::fill(d.has.begin(), d.has.begin() + static_cast<std::ptrdiff_t>(d.high), false);
      d.high = 0;
      d.count = 0;
    }
    other_.clear();
  }
  std::size_t size() const {
    std::size_t n = other_.size();
    for (const Dense& d : dense_) n += d.count;
    return n;
  }

 private:
  struct Dense {
    std::vector<bool> has;
    std::vector<V> values;
    std::size_t high = 0;   // numbers at or past it are not set
    std::size_t count = 0;  // numbers set
  };
  std::vector<Dense> dense_;
  NameMap<std::uint32_t> prefixes_;  // prefix → index in dense_ (prefixes are views of names)
  NameMap<V> other_;

  // "add.12" → "add." and 12. False when the name does not end in digits, or the digits start
  // with a 0 other than "0" itself ("%01" is not "%1"), or are more than 9.
  static bool split(std::string_view name, std::string_view* head, std::uint32_t* number) {
    std::size_t i = name.size();
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
    const std::size_t digits = name.size() - i;
    if (digits == 0 || digits > 9 || (digits > 1 && name[i] == '0')) return false;
    std::uint32_t n = 0;
    for (std::size_t k = i; k < name.size(); ++k)
      n = n * 10 + static_cast<std::uint32_t>(name[k] - '0');
    *head = name.substr(0, i);
    *number = n;
    return true;
  }
};

}  // namespace rl::hlo

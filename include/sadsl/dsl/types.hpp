#pragma once
// Element types of tensors and value expressions.
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace sadsl {

enum class elem_type { f32, f64, i8, u8, i16, u16, i32, u32 };

/// The C spelling of an element type ("float", "int8_t", ...), used in messages and generated code.
std::string_view type_name(elem_type t);
/// The type name with its indefinite article, for messages: "an int8_t", "a uint8_t", "a float".
std::string with_article(elem_type t);
/// Size in bytes of one element.
int type_size(elem_type t);
inline bool is_float(elem_type t) { return t == elem_type::f32 || t == elem_type::f64; }

template <class T> struct elem_type_of;
template <> struct elem_type_of<float> { static constexpr elem_type value = elem_type::f32; };
template <> struct elem_type_of<double> { static constexpr elem_type value = elem_type::f64; };
template <> struct elem_type_of<int8_t> { static constexpr elem_type value = elem_type::i8; };
template <> struct elem_type_of<uint8_t> { static constexpr elem_type value = elem_type::u8; };
template <> struct elem_type_of<int16_t> { static constexpr elem_type value = elem_type::i16; };
template <> struct elem_type_of<uint16_t> { static constexpr elem_type value = elem_type::u16; };
template <> struct elem_type_of<int32_t> { static constexpr elem_type value = elem_type::i32; };
template <> struct elem_type_of<uint32_t> { static constexpr elem_type value = elem_type::u32; };

template <class T>
concept element = requires { elem_type_of<T>::value; };

/// Calls f(T{}) with the C++ type that represents t.
template <class F>
decltype(auto) visit_type(elem_type t, F&& f) {
  switch (t) {
    case elem_type::f32: return f(float{});
    case elem_type::f64: return f(double{});
    case elem_type::i8: return f(int8_t{});
    case elem_type::u8: return f(uint8_t{});
    case elem_type::i16: return f(int16_t{});
    case elem_type::u16: return f(uint16_t{});
    case elem_type::i32: return f(int32_t{});
    case elem_type::u32: return f(uint32_t{});
  }
  return f(float{});
}

}  // namespace sadsl

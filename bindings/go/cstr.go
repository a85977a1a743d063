package mcpresources

// #include "shim.h"
import "C"

import "unsafe"

// cstr borrows a Go string as an mcpr_str for the duration of one C call
// (the library copies what it keeps). The caller keeps s alive across the
// call (it is an argument of the calling function).
func cstr(s string) C.mcpr_str {
	if len(s) == 0 {
		return C.mcpr_str{}
	}
	return C.mcpr_str{ptr: (*C.char)(unsafe.Pointer(unsafe.StringData(s))), len: C.size_t(len(s))}
}

// cbytes borrows a byte slice as an mcpr_str for the duration of one C call.
func cbytes(b []byte) C.mcpr_str {
	if len(b) == 0 {
		return C.mcpr_str{}
	}
	return C.mcpr_str{ptr: (*C.char)(unsafe.Pointer(unsafe.SliceData(b))), len: C.size_t(len(b))}
}

// goString copies an mcpr_str into a Go string.
func goString(s C.mcpr_str) string {
	if s.len == 0 || s.ptr == nil {
		return ""
	}
	return string(unsafe.Slice((*byte)(unsafe.Pointer(s.ptr)), int(s.len)))
}

// goBytes copies an mcpr_str into a new byte slice.
func goBytes(s C.mcpr_str) []byte {
	if s.len == 0 || s.ptr == nil {
		return []byte{}
	}
	b := make([]byte, int(s.len))
	copy(b, unsafe.Slice((*byte)(unsafe.Pointer(s.ptr)), int(s.len)))
	return b
}

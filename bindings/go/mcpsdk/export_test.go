package mcpsdk

// SpliceMetaForTest exposes rawResult's marshalling to the tests.
func SpliceMetaForTest(raw []byte, meta map[string]any) ([]byte, error) {
	r := &rawResult{raw: raw}
	r.Meta = meta
	return r.MarshalJSON()
}

// `pulsedot render`: placeholder until the foundation issue lands; replace this file.
func renderCommand(_ args: ArraySlice<String>) -> Int32 { fail("render is not built yet") }
func demoCommand(_ args: ArraySlice<String>) -> Int32 { fail("demo is not built yet") }

package mcpresources

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestRefFreesExactlyOnceAfterTheLastCall: Close racing calls frees the C
// handle once, never while a call holds it, and refuses calls after Close.
func TestRefFreesExactlyOnceAfterTheLastCall(t *testing.T) {
	for round := 0; round < 200; round++ {
		var frees, inside atomic.Int32
		r := newRef(func() {
			if inside.Load() != 0 {
				t.Error("freed while a call holds the handle")
			}
			frees.Add(1)
		})
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 50; i++ {
					if r.acquire() {
						inside.Add(1)
						inside.Add(-1)
						r.release()
					}
				}
			}()
		}
		r.close()
		r.close()
		wg.Wait()
		if r.acquire() {
			t.Fatal("acquired after close")
		}
		if frees.Load() != 1 {
			t.Fatalf("round %d: freed %d times", round, frees.Load())
		}
	}
}

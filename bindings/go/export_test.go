package mcpresources

import (
	"reflect"
	"sync"
	"sync/atomic"
)

// releases counts, per Binding or Policy value, how many times the library
// released the table that serves it.
var releases sync.Map // Binding or Policy -> *atomic.Int32

func init() {
	releaseHook = func(v any) {
		var key any
		switch e := v.(type) {
		case *bindingEntry:
			key = e.binding
		case *policyEntry:
			key = e.policy
		}
		if key == nil || !reflect.TypeOf(key).Comparable() {
			return
		}
		c, _ := releases.LoadOrStore(key, new(atomic.Int32))
		c.(*atomic.Int32).Add(1)
	}
}

// ReleasesOf is how many times the table serving v (a Binding or Policy of
// a comparable type, given to Add or SetPolicy) was released.
func ReleasesOf(v any) int32 {
	if c, ok := releases.Load(v); ok {
		return c.(*atomic.Int32).Load()
	}
	return 0
}

// PendingRequests is how many calls are registered in the request table
// (a call's entry lives from its start until it returned, or until its
// asynchronous outcome was sent).
func PendingRequests() int {
	n := 0
	for i := range requests.shards {
		sh := &requests.shards[i]
		sh.mu.Lock()
		n += len(sh.m)
		sh.mu.Unlock()
	}
	return n
}

// planCrossings counts the crossings into the plan-level policy entry.
var planCrossings atomic.Int64

func init() {
	decidePlanHook = func() { planCrossings.Add(1) }
}

// PlanCrossings is how many times the library has crossed into a Go
// policy's plan-level entry so far.
func PlanCrossings() int64 { return planCrossings.Load() }

// SetPerItemPolicies: whether policies set from now on leave out the
// plan-level entry (every question its own crossing). Not concurrent with
// SetPolicy.
func SetPerItemPolicies(on bool) { perItemPolicies = on }

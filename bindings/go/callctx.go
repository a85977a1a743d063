package mcpresources

// #include "shim.h"
import "C"

import (
	"context"
	"sync"
	"time"
)

// pollInterval is how often a callback context whose Done channel is in use
// asks the library whether the callback should stop.
const pollInterval = 2 * time.Millisecond

// callState is the context.Context handed to one callback invocation. It
// wraps the context of the Read or List call (its values, its
// cancellation) and adds the library's view: the callback's own deadline
// (the item deadline for body reads) and cancellation (caller cancel,
// deadline, or the call having returned, for an abandoned reader).
//
// The mcpr_call pointer is valid only until the callback returns; finish
// clears it under the lock, so a context (or view) kept past the callback
// never touches freed memory: it is then done with context.Canceled.
type callState struct {
	parent context.Context
	req    *request // nil for a call that already returned

	mu       sync.RWMutex
	call     *C.mcpr_call // nil once the callback returned
	done     chan struct{}
	closed   bool
	err      error
	deadline time.Time
	hasDL    bool
	dlKnown  bool
	stop     chan struct{}
	// payload is the body read's Payload (readBody), kept here so that
	// it needs no allocation of its own.
	payload Payload
}

func newCallState(req *request, call *C.mcpr_call) *callState {
	if req == nil {
		return &callState{parent: finishedContext, call: call}
	}
	return &callState{parent: req.ctx, req: req, call: call}
}

// parentErr is the parent's error. When the parent is done, the library's
// token is cancelled first: a callback that stops because its context is
// done must find the call cancelled, so that the call reports canceled
// (or deadline exceeded), not the callback's failure.
func (cs *callState) parentErr() error {
	err := cs.parent.Err()
	if err != nil && cs.req != nil {
		cs.req.cancel()
	}
	return err
}

// finish marks the callback as returned; afterwards the context is done
// and no accessor reaches the library.
func (cs *callState) finish() {
	cs.mu.Lock()
	cs.call = nil
	if cs.stop != nil {
		close(cs.stop)
		cs.stop = nil
	}
	cs.closeLocked(context.Canceled)
	cs.mu.Unlock()
}

func (cs *callState) closeLocked(err error) {
	if cs.closed {
		return
	}
	cs.closed = true
	cs.err = err
	if cs.done != nil {
		close(cs.done)
	}
}

// Deadline is the earlier of the parent's deadline and the library's
// deadline for this callback.
func (cs *callState) Deadline() (time.Time, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if !cs.dlKnown && cs.call != nil {
		cs.dlKnown = true
		ms := C.mcpr_call_remaining_ms(cs.call)
		cs.deadline = time.Now().Add(time.Duration(ms) * time.Millisecond)
		cs.hasDL = true
		if d, ok := cs.parent.Deadline(); ok && d.Before(cs.deadline) {
			cs.deadline = d
		}
	}
	if cs.dlKnown {
		return cs.deadline, cs.hasDL
	}
	return cs.parent.Deadline()
}

// Value is the parent's value (and the call state itself for the input
// accessors, input.go).
func (cs *callState) Value(key any) any {
	if _, ok := key.(callStateKey); ok {
		return cs
	}
	return cs.parent.Value(key)
}

// Err is the parent's error, else the library's verdict for this callback:
// context.DeadlineExceeded when its deadline passed, context.Canceled when
// it was cancelled or the call it serves is over.
func (cs *callState) Err() error {
	err, _ := cs.poll()
	return err
}

// poll is the verdict now (closed: the context is already done). The read
// lock is released by a deferred call: the parent's Err is host code and
// may panic, and a lock left held would hang finish.
func (cs *callState) poll() (err error, closed bool) {
	cs.mu.RLock()
	defer cs.mu.RUnlock()
	if cs.closed {
		return cs.err, true
	}
	return cs.pollLocked(), false
}

// pollLocked asks the parent and the library (read lock held, not closed).
func (cs *callState) pollLocked() error {
	if err := cs.parentErr(); err != nil {
		return err
	}
	if cs.call == nil || !bool(C.mcpr_call_is_canceled(cs.call)) {
		return nil
	}
	if C.mcpr_call_remaining_ms(cs.call) == 0 {
		return context.DeadlineExceeded
	}
	return context.Canceled
}

// Done is closed when Err becomes non-nil. The first call starts a watcher
// goroutine that stops when the callback returns.
func (cs *callState) Done() <-chan struct{} {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.done != nil {
		return cs.done
	}
	cs.done = make(chan struct{})
	if cs.closed {
		close(cs.done)
		return cs.done
	}
	cs.stop = make(chan struct{})
	go cs.watch(cs.stop)
	return cs.done
}

// watch closes the context when Err becomes non-nil, until stop. The
// parent's Done and Err are host code run on this goroutine: should they
// panic, the context ends with context.Canceled (the callback is told to
// stop) instead of the panic ending the process.
func (cs *callState) watch(stop chan struct{}) {
	err := context.Canceled
	defer func() {
		if recover() != nil {
			err = context.Canceled
		}
		if err != nil {
			cs.mu.Lock()
			cs.closeLocked(err)
			cs.mu.Unlock()
		}
	}()
	t := time.NewTicker(pollInterval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			err = nil
			return
		case <-cs.parent.Done():
			err = cs.parentErr()
			return
		case <-t.C:
			var closed bool
			if err, closed = cs.poll(); closed {
				err = nil
				return
			}
			if err != nil {
				return
			}
		}
	}
}

// live runs f with the read lock held when the callback has not returned
// (f may use the C views); it reports whether f ran.
func (cs *callState) live(f func()) bool {
	cs.mu.RLock()
	defer cs.mu.RUnlock()
	if cs.call == nil {
		return false
	}
	f()
	return true
}

var _ context.Context = (*callState)(nil)

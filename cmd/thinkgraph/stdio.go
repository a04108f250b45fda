package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thinkgraph/thinkgraph/rpcframe"
)

const (
	// maxFrame is the longest message accepted on stdin, the SDK's own
	// stdio limit (16 MiB).
	maxFrame = mcp.DefaultMaxLineLength
	// codeClientGone answers a request of the server to the client that
	// the client can no longer answer (its stdin to us is closed).
	codeClientGone = -32000
)

// stdioFilter stands between the process's stdin and stdout and the SDK's
// IOTransport (as its reader and writer). The SDK ends the session at the
// first line it cannot decode, and at the end of stdin drops every call
// still being answered; the filter reads stdin a line at a time, answers a
// bad line itself (a JSON-RPC error, or nothing for a notification) and
// passes only good ones on, and at the end of stdin holds the end back until
// every call passed on has been answered.
type stdioFilter struct {
	in  *bufio.Reader
	log *slog.Logger

	// Only the SDK's reading goroutine touches these.
	line    []byte // the line being read
	frame   []byte // what is left of the frame handed to the SDK
	readErr error  // why stdin ended
	// initialized: an initialize request was passed on (calls before it
	// are answered here: the SDK answers them with error code 0).
	initialized bool

	mu       sync.Mutex // guards out and the fields below
	changed  *sync.Cond // signalled when a call is answered, a frame is queued or the filter closes
	out      io.Writer
	inflight map[jsonrpc.ID]string // the client's calls passed on and not yet answered, by id: their method
	outgoing map[jsonrpc.ID]bool   // the server's calls to the client not yet answered
	ended    bool                  // stdin has ended
	closed   bool                  // the SDK closed the transport
	queue    [][]byte              // frames for the SDK made up after stdin ended
}

func newStdioFilter(in io.Reader, out io.Writer, log *slog.Logger) *stdioFilter {
	f := &stdioFilter{in: bufio.NewReaderSize(in, 64<<10), log: log, out: out,
		inflight: map[jsonrpc.ID]string{}, outgoing: map[jsonrpc.ID]bool{}}
	f.changed = sync.NewCond(&f.mu)
	return f
}

// Read gives the SDK the good frames of stdin, one line each. At the end of
// stdin it waits for every call passed on to be answered before it returns
// io.EOF; meanwhile it answers the server's own calls to the client (which
// cannot answer them any more) with an error.
func (f *stdioFilter) Read(p []byte) (int, error) {
	for len(f.frame) == 0 {
		frame, err := f.next()
		if err != nil {
			return 0, err
		}
		f.frame = frame
	}
	n := copy(p, f.frame)
	f.frame = f.frame[n:]
	return n, nil
}

// next returns the next frame for the SDK.
func (f *stdioFilter) next() ([]byte, error) {
	for f.readErr == nil {
		line, tooLong := f.readLine()
		if tooLong {
			f.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: a message is at most %d bytes (one line)", maxFrame), len(line))
		} else if frame := f.check(line); frame != nil {
			return frame, nil
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.ended {
		f.ended = true
		if !errors.Is(f.readErr, io.EOF) {
			f.log.Warn("reading stdin failed", "error", f.readErr)
		}
		for id := range f.outgoing {
			f.queue = append(f.queue, clientGone(id))
		}
		clear(f.outgoing)
		// A subscription lasts until it is cancelled: the client that
		// closed stdin can no longer do it.
		for id, method := range f.inflight {
			if method == "subscriptions/listen" {
				f.queue = append(f.queue, cancelled(id))
			}
		}
	}
	for len(f.queue) == 0 && len(f.inflight) > 0 && !f.closed {
		f.changed.Wait()
	}
	if len(f.queue) > 0 && !f.closed {
		frame := f.queue[0]
		f.queue = f.queue[1:]
		return frame, nil
	}
	return nil, io.EOF
}

// readLine reads the next line of stdin, without its line ending. A line
// longer than maxFrame is read to its end but not kept: tooLong reports it
// (with the bytes kept so far). At the end of stdin it sets f.readErr.
func (f *stdioFilter) readLine() (line []byte, tooLong bool) {
	if cap(f.line) > 1<<20 {
		f.line = nil // do not hold on to a large frame's memory
	}
	f.line = f.line[:0]
	for {
		chunk, err := f.in.ReadSlice('\n')
		if tooLong || len(f.line)+len(chunk) > maxFrame+2 { // the frame, "\r\n"
			tooLong = true
		} else {
			f.line = append(f.line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			f.readErr = err
		}
		line = bytes.TrimRight(f.line, "\r\n")
		return line, tooLong || len(line) > maxFrame
	}
}

// check returns line as a frame for the SDK if it is one good JSON-RPC
// message (rpcframe.Frame), else answers it (a request) or drops it (a
// notification) and returns nil.
func (f *stdioFilter) check(line []byte) []byte {
	line = bytes.Trim(line, " \t\r\n")
	if len(line) == 0 {
		return nil
	}
	m, rej := rpcframe.Frame(line)
	// A call before initialize (the SDK answers it with error code 0).
	if rej == nil && !f.initialized {
		if rej = rpcframe.BeforeInitialize(m, line); rej == nil && m.MethodName() == "initialize" {
			// The SDK answers initialize before it reads on.
			f.initialized = true
		}
	}
	if rej != nil && rej.Drop {
		f.log.Warn("dropped a bad notification from stdin", "error", rej.Message, "bytes", len(line))
		return nil
	}
	if rej != nil {
		f.reject(rej.ID, rej.Code, rej.Message, len(line))
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	switch msg := m.Decoded.(type) {
	case *jsonrpc.Request:
		if msg.IsCall() {
			if _, dup := f.inflight[msg.ID]; dup {
				id, _ := json.Marshal(msg.ID.Raw())
				f.writeError(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: id %s is already used by a call being answered", id), len(line))
				return nil
			}
			f.inflight[msg.ID] = msg.Method
		}
	case *jsonrpc.Response:
		delete(f.outgoing, msg.ID)
	}
	return append(line, '\n')
}

// reject answers a bad message with a JSON-RPC error; id is the raw JSON id,
// nil for null.
func (f *stdioFilter) reject(id json.RawMessage, code int, msg string, size int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writeError(id, code, msg, size)
}

// writeError writes a JSON-RPC error to stdout; f.mu is held.
func (f *stdioFilter) writeError(id json.RawMessage, code int, msg string, size int) {
	f.log.Warn("answered a bad message from stdin with an error", "error", msg, "bytes", size)
	b := (&rpcframe.Reject{ID: id, Code: code, Message: msg}).Response()
	if _, err := f.out.Write(append(b, '\n')); err != nil {
		f.log.Warn("writing to stdout failed", "error", err)
	}
}

// Write writes a message of the SDK to stdout, noting the calls it answers
// and the calls the server makes to the client.
func (f *stdioFilter) Write(p []byte) (int, error) {
	msg, err := jsonrpc.DecodeMessage(p)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err == nil {
		switch msg := msg.(type) {
		case *jsonrpc.Response:
			delete(f.inflight, msg.ID)
			f.changed.Broadcast()
		case *jsonrpc.Request:
			if msg.IsCall() {
				if f.ended {
					f.queue = append(f.queue, clientGone(msg.ID))
					f.changed.Broadcast()
				} else {
					f.outgoing[msg.ID] = true
				}
			}
		}
	}
	return f.out.Write(p)
}

// Close is called when the SDK ends the session: a Read waiting for calls
// to be answered returns.
func (f *stdioFilter) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	f.changed.Broadcast()
	return nil
}

// clientGone is the answer to a call of the server's that the client can no
// longer answer.
func clientGone(id jsonrpc.ID) []byte {
	b, _ := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: codeClientGone, Message: "the client closed stdin: it can no longer answer"}})
	return append(b, '\n')
}

// cancelled is a notification cancelling the client's call id.
func cancelled(id jsonrpc.ID) []byte {
	params, _ := json.Marshal(map[string]any{"requestId": id.Raw(), "reason": "the client closed stdin"})
	b, _ := jsonrpc.EncodeMessage(&jsonrpc.Request{Method: "notifications/cancelled", Params: params})
	return append(b, '\n')
}

package thinkgraph

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrNotFound is wrapped by store errors for rows that do not exist.
var ErrNotFound = errors.New("not found")

// ErrConflict is wrapped by store errors for rows that already exist.
var ErrConflict = errors.New("already exists")

// Code classifies an error reported to a client.
type Code string

// Error codes (docs/contracts.md#error-codes): every code a tool or the
// HTTP API reports, in one list and one style, a name ending in "Error" as
// Branch Thinking's codes (the first five, kept as its clients read them).
const (
	CodeValidation        Code = "ValidationError"
	CodeBranchNotFound    Code = "BranchNotFoundError"
	CodeThoughtNotFound   Code = "ThoughtNotFoundError"
	CodeCircularReference Code = "CircularReferenceError"
	CodeSemanticModel     Code = "SemanticModelError"

	CodeSessionNotFound Code = "SessionNotFoundError"
	// CodeStoreUnavailable: the database could not be reached; the call may
	// be retried once it is back.
	CodeStoreUnavailable Code = "StoreUnavailableError"
	// CodeStoreReadOnly: the database cannot be written by this server
	// (a read-only file); retrying does not help until an operator makes
	// it writable and restarts the server. Reads still work.
	CodeStoreReadOnly Code = "StoreReadOnlyError"

	// CodeProviderNotConfigured: an LLM-backed tool was called with no
	// provider configured and no MCP sampling available.
	CodeProviderNotConfigured Code = "ProviderNotConfiguredError"
	// The language model call failed after its retries: Langbase or another
	// provider unreachable, an error answer of the provider's API, a time-out.
	CodeLangbaseUnavailable Code = "LangbaseUnavailableError"
	CodeProviderUnavailable Code = "ProviderUnavailableError"
	CodeAPI                 Code = "ApiError"
	CodeTimeout             Code = "TimeoutError"
	// CodeCancelled: the client cancelled an LLM-backed call.
	CodeCancelled Code = "CancelledError"
	// CodeLimit: a bound on what a session or a client may send was
	// reached (HTTP 429); RetryAfter says when to try again, if waiting
	// helps.
	CodeLimit Code = "LimitError"

	// CodeBusy: the server renders as many large sessions as it allows
	// at once (render.Limiter); the call may be retried in a few seconds.
	CodeBusy Code = "BusyError"

	CodeInternal Code = "InternalError"
)

// Error is an error a tool reports to its caller: it names the field that was
// wrong, what was expected, what was received, and what to do.
type Error struct {
	Code     Code
	Message  string
	Field    string
	Expected string
	Received string
	// Suggestions tell the caller what to do next.
	Suggestions []string
	// RetryAfter, for a LimitError, is how long to wait before trying
	// again (0: waiting does not help).
	RetryAfter time.Duration
	Err        error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Message)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Invalid returns a validation error for field.
func Invalid(field, expected, received, format string, args ...any) *Error {
	return &Error{
		Code:     CodeValidation,
		Message:  fmt.Sprintf(format, args...),
		Field:    field,
		Expected: expected,
		Received: received,
	}
}

// AsError returns err as an *Error, wrapping unclassified errors as internal.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInternal, Message: "internal error", Err: err}
}

package thinkgraph

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNotFound is wrapped by store errors for rows that do not exist.
var ErrNotFound = errors.New("not found")

// ErrConflict is wrapped by store errors for rows that already exist.
var ErrConflict = errors.New("already exists")

// Code classifies an error reported to a client.
type Code string

// Error codes (docs/contracts.md#error-codes). The first group is Branch
// Thinking's, the second mcp-langbase-reasoning's.
const (
	CodeValidation        Code = "ValidationError"
	CodeBranchNotFound    Code = "BranchNotFoundError"
	CodeThoughtNotFound   Code = "ThoughtNotFoundError"
	CodeCircularReference Code = "CircularReferenceError"
	CodeSemanticModel     Code = "SemanticModelError"

	CodeSessionNotFound Code = "SessionNotFound"
	CodeInternal        Code = "InternalError"
	// CodeStoreUnavailable: the database could not be reached; the call may
	// be retried once it is back.
	CodeStoreUnavailable Code = "StoreUnavailable"
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
	Err         error
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

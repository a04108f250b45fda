package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// wrapTransport turns an error from sending a request into an error whose
// text is free of secrets. Connection-level failures become *connError
// (retried); context errors pass through unchanged so the retry wrapper can
// tell a timeout from a cancellation.
func wrapTransport(provider string, err error, secrets ...Secret) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	msg := redact(err.Error(), secrets...)
	var ue *url.Error
	var ne net.Error
	if errors.As(err, &ue) || errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return &connError{provider: provider, msg: msg, cause: err}
	}
	return &plainError{msg: provider + ": " + msg}
}

// plainError is a non-retryable failure with a redacted message.
type plainError struct{ msg string }

func (e *plainError) Error() string { return e.msg }

// errorMessage extracts a human-readable message from an API error body:
// {"error":{"message":...}}, {"error":"..."}, {"message":...}, or the text.
func errorMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	if json.Unmarshal(body, &v) == nil {
		if len(v.Error) > 0 {
			var inner struct {
				Message string `json:"message"`
				Type    string `json:"type"`
			}
			var s string
			switch {
			case json.Unmarshal(v.Error, &inner) == nil && inner.Message != "":
				if inner.Type != "" {
					return inner.Type + ": " + inner.Message
				}
				return inner.Message
			case json.Unmarshal(v.Error, &s) == nil && s != "":
				return s
			}
		}
		if v.Message != "" {
			return v.Message
		}
		if v.Detail != "" {
			return v.Detail
		}
	}
	return strings.TrimSpace(string(body))
}

// apiErrorMessage sanitizes an error body for an *APIError.
func apiErrorMessage(body []byte, secrets ...Secret) string {
	return truncate(redact(errorMessage(body), secrets...), 500)
}

// sdkErrorBody returns the sanitized message of an SDK API error: from the
// response body the SDK keeps readable, else from the raw "error" JSON.
func sdkErrorBody(resp *http.Response, rawErrorJSON string, secrets ...Secret) string {
	if resp != nil && resp.Body != nil {
		data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		if err == nil && len(bytes.TrimSpace(data)) > 0 {
			return apiErrorMessage(data, secrets...)
		}
	}
	if rawErrorJSON != "" {
		return apiErrorMessage([]byte(`{"error":`+rawErrorJSON+`}`), secrets...)
	}
	return ""
}

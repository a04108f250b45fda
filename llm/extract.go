package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrNoJSON is returned by [ExtractJSON] when the text holds no JSON object.
var ErrNoJSON = errors.New("no JSON object found in model output")

// ExtractJSON finds the first JSON object in model output that decodes into
// v and decodes it: bare JSON, JSON in a Markdown code fence, or JSON with
// prose around it. Objects that do not decode into v (wrong field types) are
// skipped. It returns [ErrNoJSON] when there is no JSON object at all, or the
// decoding error of the last candidate when none fits v. Its work is linear
// in len(text) times a small constant, whatever the input.
func ExtractJSON(text string, v any) error {
	// Budget of bytes scanned over all candidates: bounds the time on
	// adversarial input such as many unclosed braces.
	budget := 16*len(text) + 1<<20
	var lastErr error
	found := false
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '{')
		if j < 0 {
			break
		}
		start := i + j
		end, scanned := matchObject(text, start, budget)
		budget -= scanned
		if end > 0 {
			cand := []byte(text[start:end])
			if json.Valid(cand) {
				found = true
				dec := json.NewDecoder(bytes.NewReader(cand))
				err := dec.Decode(v)
				if err == nil {
					return nil
				}
				lastErr = err
			}
		}
		if budget <= 0 {
			break
		}
		i = start + 1
	}
	if !found {
		return ErrNoJSON
	}
	return fmt.Errorf("JSON object in model output does not fit: %w", lastErr)
}

// matchObject returns the end (exclusive) of the balanced {...} value
// starting at text[start], or -1, scanning at most budget bytes; it also
// returns the number of bytes scanned. Strings and escapes are honoured.
func matchObject(text string, start, budget int) (end, scanned int) {
	depth := 0
	inString, escaped := false, false
	for k := start; k < len(text); k++ {
		scanned++
		if scanned > budget {
			return -1, scanned
		}
		c := text[k]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				if c != '}' {
					return -1, scanned
				}
				return k + 1, scanned
			}
			if depth < 0 {
				return -1, scanned
			}
		}
	}
	return -1, scanned
}

// DefaultPipeConfidence is the confidence of a pipe answer that is not the
// JSON {thought, confidence, metadata} (mcp-langbase-reasoning).
const DefaultPipeConfidence = 0.8

// PipeAnswer is the answer of a reasoning pipe (mcp-langbase-reasoning):
// {"thought": ..., "confidence": ..., "metadata": {...}}.
type PipeAnswer struct {
	Thought    string         `json:"thought"`
	Confidence float64        `json:"confidence"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	// Structured is false when the answer was not that JSON and the whole
	// text was taken as the thought.
	Structured bool `json:"-"`
}

// ParsePipeAnswer reads a reasoning answer: the first JSON object with a
// non-empty "thought" (confidence clamped to [0, 1], default 0.8 when
// absent), or else the whole trimmed text as the thought with confidence
// [DefaultPipeConfidence].
func ParsePipeAnswer(content string) PipeAnswer {
	var raw struct {
		Thought    string         `json:"thought"`
		Confidence *float64       `json:"confidence"`
		Metadata   map[string]any `json:"metadata"`
	}
	if err := ExtractJSON(content, &raw); err == nil && strings.TrimSpace(raw.Thought) != "" {
		a := PipeAnswer{Thought: raw.Thought, Confidence: DefaultPipeConfidence, Metadata: raw.Metadata, Structured: true}
		if raw.Confidence != nil {
			a.Confidence = min(max(*raw.Confidence, 0), 1)
		}
		return a
	}
	return PipeAnswer{Thought: strings.TrimSpace(content), Confidence: DefaultPipeConfidence}
}

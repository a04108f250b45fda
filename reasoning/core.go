package reasoning

import (
	"context"
	"time"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/llm"
	"github.com/thinkgraph/thinkgraph/semantic"
)

// What the tool families' packages (reasoning/branching, reasoning/lux,
// reasoning/pipes, reasoning/think, reasoning/graph, reasoning/sequential)
// use of the core: the exported names of helpers the core's own tools call
// unexported.

// Now is the service's clock (UTC).
func (s *Service) Now() time.Time { return s.now() }

// Semantic returns a copy of the semantic engine's configuration, or nil
// when the engine is off (see EnableSemantic).
func (s *Service) Semantic() *SemanticConfig {
	if s.sem == nil {
		return nil
	}
	cfg := s.sem.cfg
	return &cfg
}

// Session loads the session of ref in tx, locked for writing. With create,
// a session that does not exist yet is created with mode; otherwise it is a
// SessionNotFoundError.
func (s *Service) Session(ctx context.Context, tx thinkgraph.Tx, ref SessionRef, create bool, mode string) (*thinkgraph.Session, error) {
	return s.session(ctx, tx, ref, create, mode)
}

// AppendThought gives th the session's next step, attaches it to the
// current thought (unless th.ParentID is set) on the active branch (unless
// th.BranchID is set), stores it with its vector (nil: none yet), makes it
// current and saves the session.
func (s *Service) AppendThought(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, th *thinkgraph.Thought, vec semantic.Vector) error {
	return s.appendThought(ctx, tx, sess, th, vec)
}

// EmbedForWrite embeds the texts of thoughts about to be written, within
// SemanticConfig.EmbedTimeout; nil when the engine is off or embedding
// failed (the thoughts are then embedded on their session's next analysis).
func (s *Service) EmbedForWrite(ctx context.Context, texts ...string) []semantic.Vector {
	return s.embedForWrite(ctx, texts...)
}

// VectorAt returns vs[i], or nil when embedding failed.
func VectorAt(vs []semantic.Vector, i int) semantic.Vector { return vectorAt(vs, i) }

// Provider returns the language-model provider for tool, recording every
// call as an invocation of the session of ref (reasoningTool: Langbase
// whenever it is configured).
func (s *Service) Provider(tool string, ref SessionRef, reasoningTool bool, call LLMCall) (llm.Provider, error) {
	return s.provider(tool, ref, reasoningTool, call)
}

// Complete runs one request on p, reporting progress to the caller; a
// failure is the thinkgraph error of its kind.
func (s *Service) Complete(ctx context.Context, p llm.Provider, call LLMCall, req llm.Request) (llm.Response, error) {
	return s.complete(ctx, p, call, req)
}

// ValidateContent checks a thought's text given in field: present, not
// blank, valid UTF-8, at most max characters.
func ValidateContent(field, text string, max int) error { return validateContent(field, text, max) }

// Clip returns s cut to n characters, with "…" when it was longer.
func Clip(s string, n int) string { return clip(s, n) }

// AddThought is AppendThought without saving the session: for callers that
// save it themselves before the transaction ends, so that its row is
// written once.
func (s *Service) AddThought(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, th *thinkgraph.Thought, vec semantic.Vector) error {
	return s.addThought(ctx, tx, sess, th, vec)
}

// AddInput is AddThought for a caller's input to a model call: stored
// before the model is called, as a child of the current thought, while the
// session's current thought and active branch stay where they were (the
// model's answer moves them).
func (s *Service) AddInput(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, th *thinkgraph.Thought, vec semantic.Vector) error {
	return s.addInput(ctx, tx, sess, th, vec)
}

// ValidateText is ValidateContent for a text that may be empty.
func ValidateText(field, text string, max int) error { return validateText(field, text, max) }

// Thought loads thought id of the session, named by the caller's field: a
// ThoughtNotFoundError naming that field when it does not exist.
func (s *Service) Thought(ctx context.Context, tx thinkgraph.Tx, sess *thinkgraph.Session, field, id string) (*thinkgraph.Thought, error) {
	return s.thought(ctx, tx, sess, field, id)
}

// DocVectors is the vector lookup of the documents Docs would return now:
// the vectors (and steps) of the session's thoughts, without copying the
// documents or reading the links; ErrNoSemantic when the engine is off.
// Call it before writing in tx: the cache must only see committed thoughts.
func (s *Service) DocVectors(ctx context.Context, tx thinkgraph.Tx, session thinkgraph.SessionKey) (vector func(id string) (semantic.Vector, bool), step func(id string) (int, bool), err error) {
	return s.docVectors(ctx, tx, session)
}

// ContextSize is the number of thoughts in the session's context window.
func (s *Service) ContextSize(sess *thinkgraph.Session) int { return s.contextSize(sess) }

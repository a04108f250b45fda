package branching

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/reasoning"
)

// ExportResult is the answer of export.
type ExportResult struct {
	Header
	Document *reasoning.Exchange `json:"document"`
	Message  string              `json:"message"`
}

func (bt *BranchThinking) export(ctx context.Context, in CommandInput) (*ExportResult, error) {
	res := &ExportResult{Header: Header{Command: "export"}}
	err := bt.svc.ViewOrEmpty(ctx, in.Session, func(tx thinkgraph.Tx, sess *thinkgraph.Session) error {
		doc, err := reasoning.ExportSession(ctx, tx, sess, bt.svc.Now())
		if err != nil {
			return err
		}
		res.SessionID, res.Document = sess.ID, doc
		res.Message = fmt.Sprintf("Exported %d branches, %d thoughts, %d links and %d feedback as %s version %d; pass the document as command.data of import to restore it as a new session.",
			len(doc.Branches), len(doc.Thoughts), len(doc.Links), len(doc.Feedback), reasoning.ExchangeFormat, reasoning.ExchangeVersion)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// ImportResult is the answer of import.
type ImportResult struct {
	Command string `json:"command"`
	reasoning.ImportReport
	Message string `json:"message"`
	// Omitted counts the entries left out of thoughtIdMap and linkIdMap
	// (at most idMapEntries each are shown; steps are kept, so a thought
	// of the new session is named by its step as before).
	Omitted map[string]int `json:"omitted,omitempty" jsonschema:"how many entries of each shortened map were left out"`
}

// idMapEntries is how many entries of each id map import shows.
const idMapEntries = 20

// firstEntries keeps the entries of m with the idMapEntries smallest keys.
func firstEntries(m map[string]string, omitted *map[string]int, path string) map[string]string {
	if len(m) <= idMapEntries {
		return m
	}
	keys := slices.Sorted(maps.Keys(m))
	out := make(map[string]string, idMapEntries)
	for _, k := range keys[:idMapEntries] {
		out[k] = m[k]
	}
	omit(omitted, path, len(m)-idMapEntries)
	return out
}

func (bt *BranchThinking) importSession(ctx context.Context, in CommandInput) (*ImportResult, error) {
	doc, err := reasoning.ParseExchange(in.Document, bt.svc.Config().MaxThoughtLength)
	if err != nil {
		return nil, err
	}
	rep, err := bt.svc.ImportSession(ctx, doc, in.Session.Tenant)
	if err != nil {
		return nil, err
	}
	res := &ImportResult{Command: "import", ImportReport: *rep}
	res.ThoughtIDs = firstEntries(res.ThoughtIDs, &res.Omitted, "thoughtIdMap")
	res.LinkIDs = firstEntries(res.LinkIDs, &res.Omitted, "linkIdMap")
	res.Message = fmt.Sprintf("Imported %d branches, %d thoughts, %d links and %d feedback as the new session %q (thought and link ids were remapped, see thoughtIdMap; steps are kept, so #8 names the same thought); pass session_id %q to continue it.",
		rep.Branches, rep.Thoughts, rep.Links, rep.Feedback, rep.SessionID, rep.SessionID)
	return res, nil
}

// Lossless marks export's result as one whose numbers are exact: import
// restores the document (results are otherwise read rounded, 2 decimals).
func (ExportResult) Lossless() {}

package branching

import (
	"context"

	"github.com/thinkgraph/thinkgraph"
	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/analyze"
)

// rankSimilar is the one ranking of findSimilar and jumpToRelated: the
// session's thoughts by the centred cosine of their vectors with q (what
// sets a thought apart from the session's shared topic); with the offline
// engine the best semantic.RerankPool are then re-ranked by the word
// alignment of text with each thought's best-aligned claim. It returns the
// best k but the thoughts in exclude.
func (bt *BranchThinking) rankSimilar(docs []analyze.Doc, byID map[string]int, idx *semantic.Index, q semantic.Vector, text string, k int, exclude ...string) ([]semantic.Hit, error) {
	lex, offline := bt.svc.Semantic().Embedder.(*semantic.Lexical)
	pool := k
	if offline {
		pool = max(k, semantic.RerankPool)
	}
	var filter semantic.Filter
	if len(exclude) > 0 {
		filter = semantic.ExcludeIDs(exclude...)
	}
	hits, err := idx.TopKCentred(q, pool, filter)
	if err != nil {
		return nil, &thinkgraph.Error{Code: thinkgraph.CodeSemanticModel, Message: "similarity search failed", Err: err}
	}
	if offline {
		hits, _ = semantic.RerankTexts(lex.Lexicon(), text, hits, func(h semantic.Hit) []string {
			i, ok := byID[h.ID]
			if !ok {
				return nil
			}
			var texts []string
			for _, c := range docs[i].Claims {
				texts = append(texts, c.Text)
			}
			if len(texts) != 1 {
				texts = append(texts, docs[i].Content)
			}
			return texts
		})
	}
	return hits[:min(k, len(hits))], nil
}

// refsOf are the hits as related thoughts.
func refsOf(docs []analyze.Doc, byID map[string]int, hits []semantic.Hit) []RelatedThought {
	out := make([]RelatedThought, 0, len(hits))
	for _, h := range hits {
		i, ok := byID[h.ID]
		if !ok {
			continue
		}
		d := docs[i]
		out = append(out, RelatedThought{ThoughtID: d.ID, Content: d.Content, BranchID: d.Branch, Similarity: h.Similarity, Type: d.Type, Step: d.Step})
	}
	return out
}

// setRelationships sets each related thought's relationship to a thought
// on branch from, as Branch Thinking names it: same-branch, child-branch
// (its branch's parent is from), parent-branch (from's parent is its
// branch) or cross-branch.
func setRelationships(ctx context.Context, tx thinkgraph.Tx, session thinkgraph.SessionKey, from string, related []RelatedThought) error {
	bs, err := tx.Branches(ctx, session)
	if err != nil {
		return err
	}
	parent := make(map[string]string, len(bs))
	for _, b := range bs {
		parent[b.ID] = b.ParentBranchID
	}
	for i := range related {
		to := related[i].BranchID
		switch {
		case to == from:
			related[i].Relationship = "same-branch"
		case parent[to] == from:
			related[i].Relationship = "child-branch"
		case parent[from] == to:
			related[i].Relationship = "parent-branch"
		default:
			related[i].Relationship = "cross-branch"
		}
	}
	return nil
}

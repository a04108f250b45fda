package branching

import (
	"context"

	"github.com/thinkgraph/thinkgraph"
)

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

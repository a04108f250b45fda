package semantic

// Verdict is the contradiction decider's answer for one pair of texts.
type Verdict struct {
	Contradicts bool
	Confidence  float64 // in [0,1]
	Reason      string  // human-readable explanation; "" when no contradiction
}

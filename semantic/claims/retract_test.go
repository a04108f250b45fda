package claims

import "testing"

// A sentence that takes back the writer's own step retracts; one about an
// error in something else does not.
func TestRetracts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"We made an error in the second step: the rate is per hour, not per minute.", true},
		{"I think we made a mistake when we carried the one.", true},
		{"We have an error, the total should be 240.", true},
		{"Where did we make an error?", true},
		{"No, that's wrong. The sum is 17.", true},
		{"My mistake: the bucket is in eu-west-1.", true},
		{"I miscounted the replicas; there are four.", true},
		{"Correction: the lease ends in May.", true},
		{"Step 3 gives 40\nNo, that's wrong. It gives 45.", true},
		{"We should have divided by 12, not by 10.", true},
		{"I was wrong about the cache.", true},
		{"The error is a timeout in the upstream call.", false},
		{"We have an error rate of 2% at peak.", false},
		{"The test is wrong about the currency column, since 3.11 formats enums differently.", false},
		{"If we are wrong about the load, the pool will run dry.", false},
		{"Our error budget for the month is 43 minutes.", false},
		{"If I had chosen to be an actor, I should have been the greatest actor living!", false},
		{"```\nERROR: we made an error\n```", false},
	} {
		if got := Retracts(tc.in); got != tc.want {
			t.Errorf("Retracts(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

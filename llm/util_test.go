package llm

import (
	"errors"
	"fmt"
)

func errorsAs[T any](err error, target *T) bool { return errors.As(err, target) }

// fmtAll formats err with every verb a logger might use.
func fmtAll(err error) string {
	return fmt.Sprintf("%v %+v %s %#v", err, err, err, err)
}

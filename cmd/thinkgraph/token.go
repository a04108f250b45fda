package main

import (
	"fmt"

	"github.com/thinkgraph/thinkgraph/httpserver"
)

// token makes bearer tokens for the HTTP transport.
func (e *env) token(argv []string) error {
	if wantsHelp(argv) {
		return e.helpText("Usage: thinkgraph token new TENANT\n\nMakes a bearer token for the HTTP transport: prints the token and its THINKGRAPH_TOKENS_FILE line.")
	}
	if len(argv) != 2 || argv[0] != "new" {
		return usageError{fmt.Errorf("usage: thinkgraph token new TENANT")}
	}
	token, line, err := httpserver.NewToken(argv[1])
	if err != nil {
		return usageError{err}
	}
	fmt.Fprintf(e.stdout, "token: %s\n", token)
	fmt.Fprintf(e.stdout, "tokens-file line: %s\n", line)
	fmt.Fprintln(e.stderr, "Give the token to the client (Authorization: Bearer <token>); only its hash goes in THINKGRAPH_TOKENS_FILE. The token is not stored anywhere.")
	return nil
}

package httpserver

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/thinkgraph/thinkgraph"
)

// Tokens maps bearer tokens to tenants. Only SHA-256 hashes of the tokens are
// kept (the tokens file holds "<sha256 hex> <tenant>" lines), and a presented
// token is compared with every entry in constant time.
type Tokens struct {
	entries []tokenEntry
}

type tokenEntry struct {
	hash   [sha256.Size]byte
	tenant string
}

// validTenant: 1 to 64 letters, digits or . _ -, starting with a letter or
// digit.
func validTenant(s string) bool { return thinkgraph.ValidName(s, 64, "._-") }

// ParseTokens reads a tokens file: one "<sha256 hex of the token> <tenant>"
// per line; blank lines and lines starting with # are ignored.
func ParseTokens(text string) (*Tokens, error) {
	t := &Tokens{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			return nil, fmt.Errorf("line %d: want \"<sha256 hex of token> <tenant>\", got %d fields", n, len(fields))
		}
		raw, err := hex.DecodeString(fields[0])
		if err != nil || len(raw) != sha256.Size {
			return nil, fmt.Errorf("line %d: the first field must be the 64-character hex SHA-256 of a token (see \"thinkgraph token new\")", n)
		}
		if !validTenant(fields[1]) {
			return nil, fmt.Errorf("line %d: tenant %q must be 1 to 64 letters, digits or . _ -", n, fields[1])
		}
		var e tokenEntry
		copy(e.hash[:], raw)
		e.tenant = fields[1]
		t.entries = append(t.entries, e)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(t.entries) == 0 {
		return nil, fmt.Errorf("no tokens in the file")
	}
	return t, nil
}

// LoadTokens reads the tokens file at path.
func LoadTokens(path string) (*Tokens, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("THINKGRAPH_TOKENS_FILE: %w", err)
	}
	t, err := ParseTokens(string(b))
	if err != nil {
		return nil, fmt.Errorf("THINKGRAPH_TOKENS_FILE %s: %w", path, err)
	}
	return t, nil
}

// Tenant returns the tenant of a token. Every entry is compared, in constant
// time, whatever matches.
func (t *Tokens) Tenant(token string) (string, bool) {
	h := sha256.Sum256([]byte(token))
	tenant, found := "", 0
	for _, e := range t.entries {
		if subtle.ConstantTimeCompare(h[:], e.hash[:]) == 1 {
			tenant, found = e.tenant, 1
		}
	}
	return tenant, found == 1
}

// verifier adapts Tokens to the SDK's bearer-token middleware; the tenant
// becomes the token's UserID, which the SDK also uses to stop one tenant
// from using another's MCP session id.
func (t *Tokens) verifier(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	tenant, ok := t.Tenant(token)
	if !ok {
		return nil, fmt.Errorf("unknown token: %w", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{UserID: tenant, Expiration: time.Now().Add(24 * time.Hour)}, nil
}

// NewToken returns a new random token and its tokens-file line for tenant.
func NewToken(tenant string) (token, line string, err error) {
	if !validTenant(tenant) {
		return "", "", fmt.Errorf("tenant %q must be 1 to 64 letters, digits or . _ -", tenant)
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", err
	}
	token = "tg_" + hex.EncodeToString(b)
	h := sha256.Sum256([]byte(token))
	return token, hex.EncodeToString(h[:]) + " " + tenant, nil
}

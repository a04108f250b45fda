package main

import (
	"crypto/x509"
	"net/http"
	"sync"

	"golang.org/x/crypto/x509roots/fallback/bundle"
)

// providerClient is the HTTP client of the LLM and embedding providers
// (the only HTTPS the binary calls). Its first request gives the process
// Mozilla's CA roots (golang.org/x/crypto/x509roots/fallback/bundle), used
// only where the system has none, such as the FROM scratch container
// image: the providers' certificates verify there too. Registering them at
// start, as importing golang.org/x/crypto/x509roots/fallback does, parsed
// them and the system's roots before anything else: 4–5 ms of every
// start (bench/run.sh, spawn → first call answered), paid by servers that
// never call a provider.
var providerClient = &http.Client{Transport: fallbackRootsTransport{http.DefaultTransport}}

// fallbackRootsTransport registers the fallback roots before its first
// request.
type fallbackRootsTransport struct{ base http.RoundTripper }

func (t fallbackRootsTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	fallbackRoots()
	return t.base.RoundTrip(r)
}

var fallbackRootsOnce sync.Once

// fallbackRoots sets the fallback roots (x509.SetFallbackRoots), once.
func fallbackRoots() {
	fallbackRootsOnce.Do(func() {
		p := x509.NewCertPool()
		for c := range bundle.Roots() {
			cert, err := x509.ParseCertificate(c.Certificate)
			if err != nil {
				panic(err) // the bundle is generated from parsed certificates
			}
			if c.Constraint == nil {
				p.AddCert(cert)
			} else {
				p.AddCertWithConstraint(cert, c.Constraint)
			}
		}
		x509.SetFallbackRoots(p)
	})
}

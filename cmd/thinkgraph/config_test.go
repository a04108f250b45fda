package main

import (
	"net/netip"
	"strings"
	"testing"
	"time"
)

// The HTTP bounds' settings: parsed, with a clear error for a bad value.
func TestHTTPBoundsConfig(t *testing.T) {
	load := func(env map[string]string) (*config, error) {
		return loadConfig(func(k string) string { return env[k] })
	}
	c, err := load(map[string]string{})
	if err != nil || c.sessionIdle != 0 || c.metricsTenants != nil || c.trustedProxies != nil {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	c, err = load(map[string]string{"THINKGRAPH_HTTP_SESSION_IDLE_TIMEOUT": "2h", "THINKGRAPH_METRICS_TENANTS": "ops, prom",
		"THINKGRAPH_TRUSTED_PROXIES": "10.1.2.3, 192.168.0.0/16,::1"})
	if err != nil {
		t.Fatal(err)
	}
	want := []netip.Prefix{netip.MustParsePrefix("10.1.2.3/32"), netip.MustParsePrefix("192.168.0.0/16"), netip.MustParsePrefix("::1/128")}
	if c.sessionIdle != 2*time.Hour || strings.Join(c.metricsTenants, " ") != "ops prom" || len(c.trustedProxies) != 3 ||
		c.trustedProxies[0] != want[0] || c.trustedProxies[1] != want[1] || c.trustedProxies[2] != want[2] {
		t.Fatalf("%v %v %v", c.sessionIdle, c.metricsTenants, c.trustedProxies)
	}
	if c, _ = load(map[string]string{"THINKGRAPH_HTTP_SESSION_IDLE_TIMEOUT": "0"}); c.sessionIdle >= 0 {
		t.Fatalf("0 must mean never: %v", c.sessionIdle)
	}
	for env, msg := range map[string]string{
		"THINKGRAPH_HTTP_SESSION_IDLE_TIMEOUT=30":  "THINKGRAPH_HTTP_SESSION_IDLE_TIMEOUT must be a duration of at least 1s",
		"THINKGRAPH_HTTP_SESSION_IDLE_TIMEOUT=5ms": "THINKGRAPH_HTTP_SESSION_IDLE_TIMEOUT must be a duration of at least 1s",
		"THINKGRAPH_TRUSTED_PROXIES=proxy.local":   `THINKGRAPH_TRUSTED_PROXIES: "proxy.local" is neither an IP address nor a CIDR`,
		"THINKGRAPH_TRUSTED_PROXIES=10.0.0.0/33":   `THINKGRAPH_TRUSTED_PROXIES: "10.0.0.0/33" is neither`,
	} {
		k, v, _ := strings.Cut(env, "=")
		if _, err := load(map[string]string{k: v}); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v", env, err)
		}
	}
}

package mcpserver

import (
	"context"
	"log/slog"
)

// sdkLogger returns the logger handed to the MCP SDK: the SDK reports every
// connection at info level, which is noise unless debugging, so its records
// below warn are dropped unless debug logging is on.
func sdkLogger(l *slog.Logger) *slog.Logger {
	if l.Enabled(context.Background(), slog.LevelDebug) {
		return l
	}
	return slog.New(floorHandler{l.Handler(), slog.LevelWarn})
}

type floorHandler struct {
	slog.Handler
	floor slog.Level
}

func (h floorHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.floor && h.Handler.Enabled(ctx, l)
}

func (h floorHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return floorHandler{h.Handler.WithAttrs(attrs), h.floor}
}

func (h floorHandler) WithGroup(name string) slog.Handler {
	return floorHandler{h.Handler.WithGroup(name), h.floor}
}

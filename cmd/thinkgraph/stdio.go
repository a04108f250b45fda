package main

import "io"

// readCloser and nopWriteCloser adapt the command's stdin and stdout to the
// SDK's IOTransport; closing them is the process's business.
type readCloser struct{ io.Reader }

func (readCloser) Close() error { return nil }

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

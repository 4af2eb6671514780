package access

import "strings"

// RedactURLs strips the user information (user:password@) from each of
// the comma-separated NATS URLs in s, for messages and logs: no password
// of a --nats URL is ever printed.
func RedactURLs(s string) string {
	parts := strings.Split(s, ",")
	for i, p := range parts {
		at := strings.LastIndex(p, "@")
		if at < 0 {
			continue
		}
		scheme := ""
		if j := strings.Index(p, "://"); j >= 0 && j < at {
			scheme = p[:j+3]
		}
		parts[i] = scheme + p[at+1:]
	}
	return strings.Join(parts, ",")
}

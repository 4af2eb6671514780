package i18n

import "github.com/campaign-journal/journal/helptopics"

// The Spanish of the help topics that are not commands ('journal help
// environment', 'journal help exit-codes'): their pages are in package
// helptopics beside the English, added to helpLongES.
func init() {
	for _, name := range helptopics.Topics {
		helpLongES[name] = helptopics.Page(name, "es")
	}
}

package main

import (
	"os"

	"github.com/campaign-journal/journal/i18n"
)

// langFlag is --lang: a language of the catalogue, checked when parsed.
type langFlag struct {
	l   i18n.Lang
	set bool
}

func (f *langFlag) String() string { return string(f.l) }
func (f *langFlag) Type() string   { return "es|en" }

// Lang is the language given, and whether one was (clihelp reads it).
func (f *langFlag) Lang() (i18n.Lang, bool) { return f.l, f.set }

func (f *langFlag) Set(s string) error {
	l, err := i18n.Parse(s)
	if err != nil {
		return err
	}
	f.l, f.set = l, true
	return nil
}

// language is the language of every label this invocation writes: --lang,
// else the locale's ($LC_ALL, $LC_MESSAGES, $LANG, the first one set, as
// POSIX orders them): Spanish for es*, English otherwise.
func (a *app) language() i18n.Lang {
	if a.lang.set {
		return a.lang.l
	}
	return i18n.FromEnv(os.Getenv)
}

// pageLang is the language every page of `journal serve` speaks: --lang
// when given, else none (each page speaks its browser's language, else
// language()).
func (a *app) pageLang() i18n.Lang {
	if a.lang.set {
		return a.lang.l
	}
	return ""
}

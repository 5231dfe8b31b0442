// Package server assembles Bivouac: it opens the store (bbolt, or JetStream
// on a cluster), builds the game registry, the table hub and the access
// rules, and hands the SSH front door (package sshserver) a program for each
// terminal session (package tui) and an answer for each command run without
// one (`ssh host rooms`, `admin …`, records and reviews). It is the one
// package that knows every other; nothing below it imports it.
package server

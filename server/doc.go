// Package server assembles Bivouac: it opens the store (bbolt, or JetStream
// on a cluster through package node), builds the game registry, the table
// hub, the access rules and moderation, and hands the SSH front door
// (package sshserver) a program for each terminal session (package tui)
// and an answer for each command run without one: a player's (package
// commands) or an admin's (package admin). It decides who a session plays
// as (its name, a guest's name, the new-key limit) and serves the
// operator's socket and endpoints. The jobs it puts together live in the
// packages under it (records, reviews, people, live, joinline, node), none
// of which imports it; nothing below it imports it.
package server

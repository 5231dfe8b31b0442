//go:build !race

package sshtest

const patience = 2

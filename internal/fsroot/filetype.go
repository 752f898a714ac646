package fsroot

import "io/fs"

// FileType is the kind of file a mode says. Every answer and message that
// names a kind of file tells it here, once, and names it in one of three
// registers: Word for listings (fs_list's type), Noun for the traces'
// file_type, Phrase for messages. The words are part of the tools' output,
// so each register keeps the names its tools have always answered.
type FileType int

// The kinds of file, as st_mode's S_IFMT tells them apart (inode(7)).
const (
	OtherFile FileType = iota
	RegularFile
	Directory
	Symlink
	FIFO
	Socket
	CharDevice
	BlockDevice
)

// TypeOf returns the kind of file m says.
func TypeOf(m fs.FileMode) FileType {
	switch {
	case m.IsRegular():
		return RegularFile
	case m.IsDir():
		return Directory
	case m&fs.ModeSymlink != 0:
		return Symlink
	case m&fs.ModeNamedPipe != 0:
		return FIFO
	case m&fs.ModeSocket != 0:
		return Socket
	case m&fs.ModeCharDevice != 0:
		return CharDevice
	case m&fs.ModeDevice != 0:
		return BlockDevice
	}
	return OtherFile
}

// TypeOfStat returns the kind of file a stat(2) st_mode says, as the eBPF
// programs report it for a traced descriptor.
func TypeOfStat(mode uint32) FileType { return TypeOf(fileMode(mode)) }

// fileTypeNames are each kind's names, in the registers FileType's
// methods return.
var fileTypeNames = [...]struct{ word, noun, phrase string }{
	OtherFile:   {"other", "other", "not a regular file"},
	RegularFile: {"file", "file", "a regular file"},
	Directory:   {"dir", "directory", "a directory"},
	Symlink:     {"symlink", "other", "a symbolic link"}, // a descriptor is never a link but with O_PATH: traces count it as other
	FIFO:        {"fifo", "pipe", "a FIFO"},
	Socket:      {"socket", "socket", "a socket"},
	CharDevice:  {"device", "char device", "a character device"},
	BlockDevice: {"device", "block device", "a block device"},
}

// Word is the kind's name in a listing: file, dir, symlink, fifo, socket,
// device or other.
func (t FileType) Word() string { return fileTypeNames[t].word }

// Noun is the kind's name in a trace's rows: file, directory, pipe,
// socket, char device, block device or other.
func (t FileType) Noun() string { return fileTypeNames[t].noun }

// Phrase is the kind as a message says it: "a FIFO", "a directory".
func (t FileType) Phrase() string { return fileTypeNames[t].phrase }

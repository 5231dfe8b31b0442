package werewolf

// The tests read the game's words, which its catalog registers.
import _ "github.com/bivouac-ssh/bivouac/games/werewolf/catalog"

// Go's os.ReadFile on each file named, for tst_runtime_traces (under strace).
package main

import (
	"fmt"
	"os"
)

func main() {
	total := 0
	for _, p := range os.Args[1:] {
		b, err := os.ReadFile(p)
		if err != nil {
			panic(err)
		}
		total += len(b)
	}
	fmt.Println(total)
}

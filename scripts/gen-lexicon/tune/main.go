// Command tune fits the lexical embedder's weights on the SICK TRAIN split
// by coordinate search and reports TRIAL as the held-out check; it only
// reads the TRAIN and TRIAL rows, never TEST. It is deterministic.
//
// Usage (from the repository root):
//
//	go run ./scripts/gen-lexicon/tune                      # score the defaults
//	go run ./scripts/gen-lexicon/tune -set Role=0.2 \
//	    -search 'Role=0.2|0.3|0.4;Pred=0|0.1|0.2;Bigram=0.2|0.3' -rounds 2
//
// Each line prints Spearman/Pearson on TRAIN and TRIAL. The defaults in
// semantic.DefaultLexicalWeights came from such searches started at the
// previous defaults: Role 0.3, Pred 0.2 with VerbForms (lexical-v2); then,
// once the Prep and Dense features were added (lexical-v3):
//
//	-set 'Prep=0.3,Field=0.2,IDFPower=0.8,Word=0.45,Hypernym=0.5,Bigram=0.15,Dense=0.2' \
//	-search 'Word=0.4|0.45|0.5;Synset=0.45|0.5|0.55;Hypernym=0.4|0.5|0.6;CharGram=0.1|0.15|0.2;
//	  Bigram=0.1|0.15|0.2;IDFPower=0.7|0.8|0.9;Negation=1.3|1.5|1.7;Role=0.25|0.3|0.35;
//	  Pred=0.15|0.2|0.25;Field=0.1|0.2|0.3;Prep=0.2|0.3|0.4;Dense=0.1|0.2|0.3' -rounds 2
//
// (the grid on one line), which settled on Dense 0.3 and Field 0.1: TRAIN
// 0.7343/0.7431, TRIAL 0.7290/0.7381 (lexical-v2: 0.7294/0.7299,
// 0.7258/0.7320).
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/thinkgraph/thinkgraph/semantic"
	"github.com/thinkgraph/thinkgraph/semantic/sick"
)

var trainPairs, trialPairs []sick.Pair
var dim int

func eval(w semantic.LexicalWeights, ps []sick.Pair) (float64, float64) {
	e, _ := semantic.NewLexical(semantic.LexicalOptions{Dim: dim, Weights: &w})
	g := make([]float64, len(ps))
	c := make([]float64, len(ps))
	for i, p := range ps {
		g[i] = p.Relatedness
		c[i] = sick.Cosine(e.EmbedText(p.A), e.EmbedText(p.B))
	}
	return sick.Spearman(g, c), sick.Pearson(g, c)
}

// set assigns "Name=value" (FieldScale[i]=v for field scales).
func set(w *semantic.LexicalWeights, kv string) {
	k, v, _ := strings.Cut(kv, "=")
	rv := reflect.ValueOf(w).Elem()
	var f reflect.Value
	if i := strings.IndexByte(k, '['); i > 0 {
		n, _ := strconv.Atoi(strings.TrimSuffix(k[i+1:], "]"))
		f = rv.FieldByName(k[:i]).Index(n)
	} else {
		f = rv.FieldByName(k)
	}
	if !f.IsValid() {
		log.Fatalf("no weight %q", k)
	}
	switch f.Kind() {
	case reflect.Float64:
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			log.Fatal(err)
		}
		f.SetFloat(x)
	case reflect.Int:
		x, _ := strconv.Atoi(v)
		f.SetInt(int64(x))
	case reflect.Bool:
		f.SetBool(v == "true" || v == "1")
	}
}

func main() {
	flag.IntVar(&dim, "dim", 512, "vector dimension")
	setw := flag.String("set", "", "comma-separated Name=value overrides of the default weights")
	search := flag.String("search", "", "semicolon-separated Name=v1|v2|... coordinate search grid")
	rounds := flag.Int("rounds", 2, "coordinate search rounds")
	data := flag.String("sick", "../shared/eval/sick/SICK.txt", "SICK file")
	flag.Parse()
	f, err := os.Open(*data)
	if err != nil {
		log.Fatal(err)
	}
	all, err := sick.Read(f, "TRAIN+TRIAL")
	f.Close()
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range all {
		if p.Set == "TRAIN" {
			trainPairs = append(trainPairs, p)
		} else {
			trialPairs = append(trialPairs, p)
		}
	}
	w := semantic.DefaultLexicalWeights()
	for _, kv := range strings.Split(*setw, ",") {
		if kv != "" {
			set(&w, kv)
		}
	}
	report := func(tag string, w semantic.LexicalWeights) float64 {
		a, b := eval(w, trainPairs)
		c, d := eval(w, trialPairs)
		fmt.Printf("%s train %.4f/%.4f trial %.4f/%.4f\n", tag, a, b, c, d)
		return a
	}
	best := report("start", w)
	if *search == "" {
		return
	}
	for r := 0; r < *rounds; r++ {
		improved := false
		for _, spec := range strings.Split(*search, ";") {
			name, vals, _ := strings.Cut(spec, "=")
			vs := strings.Split(vals, "|")
			scores := make([]float64, len(vs))
			var wg sync.WaitGroup
			sem := make(chan bool, 2)
			for i, v := range vs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sem <- true
					c := w
					set(&c, name+"="+v)
					scores[i], _ = eval(c, trainPairs)
					<-sem
				}()
			}
			wg.Wait()
			bi := -1
			for i := range vs {
				if scores[i] > best+1e-4 {
					best, bi = scores[i], i
				}
			}
			if bi >= 0 {
				set(&w, name+"="+vs[bi])
				improved = true
				report(fmt.Sprintf("r%d %s=%s", r, name, vs[bi]), w)
			}
		}
		if !improved {
			break
		}
	}
	fmt.Printf("final %+v\n", w)
	report("final", w)
}

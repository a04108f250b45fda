package main

import (
	"math"
	"math/rand"
	"slices"
	"sort"
	"sync"

	"github.com/thinkgraph/thinkgraph/semantic"
)

// Dense word vectors derived from the WordNet graph (semantic/wordvec.go
// reads them): each kept lemma is described by the synsets around its
// senses and the words of their glosses, that description is weighted by
// positive pointwise mutual information and reduced to wordVecDim
// dimensions by a truncated SVD. Words whose senses sit in the same part of
// the graph (guitar and flute, eat and lunch) get close vectors even when
// they share no synset, which the synset and hypernym features cannot give.
//
// The context of a lemma, summed over its senses s weighted by their
// frequency (the same tagged counts that order the senses):
//
//	s itself                                          1
//	s's direct hypernyms (instance hypernyms too)     1
//	their hypernyms                                   0.5
//	s's direct hyponyms                               0.5
//	every other synset s points to (meronyms, holonyms, similar-to,
//	also-see, derivations, attributes, domains, ...)  0.5
//	the Porter stems of s's gloss, together           0.5
//
// PPMI uses context counts smoothed with the exponent 0.75; the SVD is a
// randomized range finder (seed 1, two power iterations, 20 extra columns)
// followed by an exact eigen-decomposition of the small projected matrix,
// and a word's vector is its row of U·Σ^½, centred on the mean unit row and
// normalised. Vectors are stored as int8 (x·127/max|x| per row).
const (
	wordVecDim   = 64
	wvHyper      = 1.0
	wvHyper2     = 0.5
	wvHypo       = 0.5
	wvOther      = 0.5
	wvGloss      = 0.5
	wvAlpha      = 0.75
	wvOversample = 20
	wvIters      = 2
)

type wvEntry struct {
	col int32
	v   float64
}

// wordVectors returns one int8 row of wordVecDim per word (words sorted).
func wordVectors(words []string, wordSenses map[string][]sense, synsets map[string]*synset) [][]int8 {
	colID := map[string]int32{}
	cid := func(k string) int32 {
		if v, ok := colID[k]; ok {
			return v
		}
		colID[k] = int32(len(colID))
		return colID[k]
	}
	glossCache := map[string][]string{}
	gloss := func(k string) []string {
		if g, ok := glossCache[k]; ok {
			return g
		}
		var out []string
		for _, t := range semantic.Tokenize(synsets[k].gloss) {
			if semantic.IsStopWord(t) || semantic.IsNumber(t) || len(t) < 2 {
				continue
			}
			out = append(out, "g:"+semantic.Stem(t))
		}
		glossCache[k] = out
		return out
	}
	isHyper := func(sym string) bool { return sym == "@" || sym == "@i" }
	rows := make([][]wvEntry, len(words))
	for i, w := range words {
		row := map[int32]float64{}
		ss := slices.Clone(wordSenses[w])
		sort.SliceStable(ss, func(i, j int) bool { return ss[i].score > ss[j].score })
		tot := 0.0
		for _, s := range ss {
			tot += s.score
		}
		for _, s := range ss {
			p := s.score / tot
			row[cid(s.key)] += p
			sy := synsets[s.key]
			for _, pt := range sy.ptrs {
				switch {
				case isHyper(pt.sym):
					row[cid(pt.target)] += p * wvHyper
					for _, p2 := range synsets[pt.target].ptrs {
						if isHyper(p2.sym) {
							row[cid(p2.target)] += p * wvHyper2
						}
					}
				case pt.sym == "~" || pt.sym == "~i":
					row[cid(pt.target)] += p * wvHypo
				default:
					row[cid(pt.target)] += p * wvOther
				}
			}
			g := gloss(s.key)
			for _, t := range g {
				row[cid(t)] += p * wvGloss / math.Sqrt(float64(len(g)))
			}
		}
		r := make([]wvEntry, 0, len(row))
		for c, v := range row {
			r = append(r, wvEntry{c, v})
		}
		slices.SortFunc(r, func(a, b wvEntry) int { return int(a.col) - int(b.col) })
		rows[i] = r
	}
	// PPMI with smoothed context counts, summed in a fixed order.
	m := len(colID)
	rs := make([]float64, len(rows))
	cs := make([]float64, m)
	total := 0.0
	for i, r := range rows {
		for _, x := range r {
			rs[i] += x.v
			cs[x.col] += x.v
		}
		total += rs[i]
	}
	csa := 0.0
	for j := range cs {
		cs[j] = math.Pow(cs[j], wvAlpha)
		csa += cs[j]
	}
	a := &csr{n: len(rows), m: m, rowPtr: []int{0}}
	for i, r := range rows {
		for _, x := range r {
			if pmi := math.Log((x.v / total) / ((rs[i] / total) * (cs[x.col] / csa))); pmi > 0 {
				a.col = append(a.col, x.col)
				a.val = append(a.val, pmi)
			}
		}
		a.rowPtr = append(a.rowPtr, len(a.col))
	}
	k := wordVecDim
	u := rsvd(a, k, wvOversample, wvIters, 1)
	mean := make([]float64, k)
	for i := 0; i < a.n; i++ {
		r := u[i*k : (i+1)*k]
		normalize(r)
		for j := range mean {
			mean[j] += r[j]
		}
	}
	out := make([][]int8, a.n)
	for i := 0; i < a.n; i++ {
		r := u[i*k : (i+1)*k]
		mx := 0.0
		for j := range r {
			r[j] -= mean[j] / float64(a.n)
			mx = math.Max(mx, math.Abs(r[j]))
		}
		q := make([]int8, k)
		if mx > 0 {
			for j := range r {
				q[j] = int8(math.Round(r[j] * 127 / mx))
			}
		}
		out[i] = q
	}
	return out
}

func normalize(r []float64) {
	s := 0.0
	for _, x := range r {
		s += x * x
	}
	if s > 0 {
		s = 1 / math.Sqrt(s)
		for i := range r {
			r[i] *= s
		}
	}
}

// csr is a sparse matrix in compressed rows.
type csr struct {
	n, m   int
	rowPtr []int
	col    []int32
	val    []float64
}

// mul returns A·X for an m×K row-major X. Rows are split between workers;
// each row is summed in a fixed order, so the result does not depend on
// the scheduling.
func (a *csr) mul(x []float64, K int) []float64 {
	y := make([]float64, a.n*K)
	var wg sync.WaitGroup
	const workers = 4
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < a.n; i += workers {
				yi := y[i*K : (i+1)*K]
				for p := a.rowPtr[i]; p < a.rowPtr[i+1]; p++ {
					v, xj := a.val[p], x[int(a.col[p])*K:int(a.col[p]+1)*K]
					for k := range yi {
						yi[k] += v * xj[k]
					}
				}
			}
		}()
	}
	wg.Wait()
	return y
}

// mulT returns Aᵀ·Y for an n×K row-major Y.
func (a *csr) mulT(y []float64, K int) []float64 {
	z := make([]float64, a.m*K)
	for i := 0; i < a.n; i++ {
		yi := y[i*K : (i+1)*K]
		for p := a.rowPtr[i]; p < a.rowPtr[i+1]; p++ {
			v, zj := a.val[p], z[int(a.col[p])*K:int(a.col[p]+1)*K]
			for k := range zj {
				zj[k] += v * yi[k]
			}
		}
	}
	return z
}

// orth orthonormalises the K columns of an n×K row-major matrix (modified
// Gram-Schmidt, twice).
func orth(y []float64, n, K int) {
	for pass := 0; pass < 2; pass++ {
		for j := 0; j < K; j++ {
			for q := 0; q < j; q++ {
				d := 0.0
				for i := 0; i < n; i++ {
					d += y[i*K+j] * y[i*K+q]
				}
				for i := 0; i < n; i++ {
					y[i*K+j] -= d * y[i*K+q]
				}
			}
			s := 0.0
			for i := 0; i < n; i++ {
				s += y[i*K+j] * y[i*K+j]
			}
			if s = math.Sqrt(s); s == 0 {
				s = 1
			}
			for i := 0; i < n; i++ {
				y[i*K+j] /= s
			}
		}
	}
}

// jacobi eigen-decomposes a symmetric K×K matrix: eigenvalues in
// decreasing order and the eigenvectors as the columns of a K×K matrix.
func jacobi(c []float64, K int) ([]float64, []float64) {
	a := slices.Clone(c)
	v := make([]float64, K*K)
	for i := 0; i < K; i++ {
		v[i*K+i] = 1
	}
	for sweep := 0; sweep < 100; sweep++ {
		off := 0.0
		for p := 0; p < K; p++ {
			for q := p + 1; q < K; q++ {
				off += a[p*K+q] * a[p*K+q]
			}
		}
		if off < 1e-22 {
			break
		}
		for p := 0; p < K; p++ {
			for q := p + 1; q < K; q++ {
				apq := a[p*K+q]
				if math.Abs(apq) < 1e-300 {
					continue
				}
				theta := (a[q*K+q] - a[p*K+p]) / (2 * apq)
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				cs := 1 / math.Sqrt(t*t+1)
				sn := t * cs
				for k := 0; k < K; k++ {
					akp, akq := a[k*K+p], a[k*K+q]
					a[k*K+p], a[k*K+q] = cs*akp-sn*akq, sn*akp+cs*akq
				}
				for k := 0; k < K; k++ {
					apk, aqk := a[p*K+k], a[q*K+k]
					a[p*K+k], a[q*K+k] = cs*apk-sn*aqk, sn*apk+cs*aqk
				}
				for k := 0; k < K; k++ {
					vkp, vkq := v[k*K+p], v[k*K+q]
					v[k*K+p], v[k*K+q] = cs*vkp-sn*vkq, sn*vkp+cs*vkq
				}
			}
		}
	}
	idx := make([]int, K)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool { return a[idx[x]*K+idx[x]] > a[idx[y]*K+idx[y]] })
	ev := make([]float64, K)
	vs := make([]float64, K*K)
	for j, o := range idx {
		ev[j] = a[o*K+o]
		for k := 0; k < K; k++ {
			vs[k*K+j] = v[k*K+o]
		}
	}
	return ev, vs
}

// rsvd returns the n×k matrix U·Σ^½ of a truncated SVD of a (randomized
// range finder with a fixed seed).
func rsvd(a *csr, k, over, iters int, seed int64) []float64 {
	K := k + over
	rng := rand.New(rand.NewSource(seed))
	om := make([]float64, a.m*K)
	for i := range om {
		om[i] = rng.NormFloat64()
	}
	y := a.mul(om, K)
	orth(y, a.n, K)
	for it := 0; it < iters; it++ {
		z := a.mulT(y, K)
		orth(z, a.m, K)
		y = a.mul(z, K)
		orth(y, a.n, K)
	}
	bt := a.mulT(y, K) // (Qᵀ·A)ᵀ
	c := make([]float64, K*K)
	for i := 0; i < a.m; i++ {
		r := bt[i*K : (i+1)*K]
		for p := 0; p < K; p++ {
			if r[p] == 0 {
				continue
			}
			for q := 0; q < K; q++ {
				c[p*K+q] += r[p] * r[q]
			}
		}
	}
	ev, V := jacobi(c, K)
	out := make([]float64, a.n*k)
	for j := 0; j < k; j++ {
		sq := math.Sqrt(math.Sqrt(math.Max(ev[j], 0)))
		for i := 0; i < a.n; i++ {
			s := 0.0
			for q := 0; q < K; q++ {
				s += y[i*K+q] * V[q*K+j]
			}
			out[i*k+j] = s * sq
		}
	}
	return out
}

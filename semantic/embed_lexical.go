package semantic

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
)

// lexicalAlgorithm names the feature extraction; bump it whenever features,
// weights or hashing change so that persisted vectors are re-indexed.
const lexicalAlgorithm = "thinkgraph-lexical-v4"

// DefaultLexicalDim is the vector length of the lexical embedder unless
// LexicalOptions.Dim says otherwise.
const DefaultLexicalDim = 512

// LexicalWeights are the relative weights of the feature families of the
// lexical embedder. The defaults were tuned on the SICK TRAIN and TRIAL
// splits (relatedness Spearman); see semantic/sick.
type LexicalWeights struct {
	Word      float64 // the word's stem
	Synset    float64 // the word's WordNet senses (shared by synonyms)
	Hypernym  float64 // decay per hypernym level (0 disables hypernyms)
	Levels    int     // hypernym levels followed
	CharGram  float64 // character trigrams of the word (spelling variants)
	Bigram    float64 // consecutive content-word pairs (a little word order)
	IDFPower  float64 // exponent applied to IDF (0 = no IDF weighting)
	StopWord  float64 // weight of function words (usually 0)
	SenseNorm bool    // spread a word's mass over its senses instead of giving each its full weight
	Negation  float64 // weight of a "negated" feature relative to the rest of the vector
	MaxSenses int     // senses used per word (0: all the lexicon lists, at most 4)
	Field     float64 // the sense's semantic field (WordNet lexicographer file)
	Role      float64 // agent/patient role features ("dog bites man" vs "man bites dog")
	Pred      float64 // agent-verb and verb-patient pairs ("car exploding" vs "men exploding")
	Prep      float64 // preposition + following content word ("into the pool" vs "out of the pool")
	Dense     float64 // the word's dense WordNet-graph vector (see wordvec.go), summed over the text
	// Distributional is the share of the cosine given to the text's
	// distributional vector (GloVe word vectors averaged with smooth
	// inverse frequency weights, see glove.go): the vector's last
	// dimensions hold it, the others the hashed features, each part
	// normalised, so that the cosine of two texts is (1-Distributional) ×
	// the features' cosine + Distributional × the distributional one.
	// 0 leaves all dimensions to the features.
	Distributional float64
	// VerbForms keeps only the verb senses of an inflected verb form
	// ("slicing", "cleaned") and the noun senses of a plural ("slices").
	VerbForms bool
	// FieldScale multiplies the weight of a word whose most frequent sense
	// lies in the given WordNet lexicographer file (0 = adj.all ... 44 =
	// adj.ppl); 0 entries mean 1.
	FieldScale [45]float64
}

// DefaultLexicalWeights returns the tuned default weights.
func DefaultLexicalWeights() LexicalWeights {
	return LexicalWeights{
		// lexical-v3: Word, Hypernym, Bigram, IDFPower, Field, Prep and
		// Dense re-fitted together on SICK TRAIN (checked on TRIAL) with
		// scripts/gen-lexicon/tune once Prep and Dense were added.
		// lexical-v4: Word 0.45 → 0.25 and Dense 0.3 → 0.45 with
		// Distributional, on the reasoning dev set's retrieval sessions
		// (the words a paraphrase shares mislead more than they help
		// there) at the same SICK TRAIN Spearman.
		Word:      0.25,
		Synset:    0.5,
		Hypernym:  0.5,
		Levels:    2,
		CharGram:  0.15,
		Bigram:    0.15,
		IDFPower:  0.8,
		StopWord:  0,
		SenseNorm: true,
		Field:     0.1,
		Prep:      0.3,
		Dense:     0.45,
		// Tuned with the retrieval sessions of the reasoning dev set
		// (findSimilar top-1 and MRR) against SICK TRAIN+TRIAL
		// (Spearman): 0.5 costs SICK TRAIN ~0.015, more costs it faster
		// than retrieval gains.
		Distributional: 0.5,
		// Tuned on SICK TRAIN+TRIAL (1.0 scores 0.009 lower Spearman). It
		// puts a short sentence and its negation at cosine ~0.36-0.45 (1.0:
		// ~0.5), so contradiction search should take candidates from
		// cosine 0.3 or lower.
		Negation:  1.5,
		MaxSenses: 1,
		VerbForms: true,
		// Role, Pred and Bigram re-fitted on SICK TRAIN (checked on
		// TRIAL) with scripts/gen-lexicon/tune once VerbForms was added.
		Role: 0.3,
		Pred: 0.2,
		FieldScale: fieldScales([]fieldScale{
			// Fitted by coordinate search on SICK TRAIN+TRIAL: what is done
			// and to what (food, body, plants, contact, consumption,
			// possession) tells sentences apart more than who does it
			// (person nouns) or how (adverbs).
			{2, 0.5},   // adv.all
			{3, 0.5},   // noun.Tops
			{8, 1.33},  // noun.body
			{10, 1.33}, // noun.communication
			{13, 1.33}, // noun.food
			{17, 0.5},  // noun.object
			{18, 0.75}, // noun.person
			{20, 1.33}, // noun.plant
			{21, 0.5},  // noun.possession
			{26, 1.33}, // noun.state
			{34, 1.33}, // verb.consumption
			{35, 1.33}, // verb.contact
			{40, 1.77}, // verb.possession
			{42, 1.33}, // verb.stative
		}),
	}
}

type fieldScale struct {
	field int
	scale float64
}

func fieldScales(fs []fieldScale) [45]float64 {
	var out [45]float64
	for i := range out {
		out[i] = 1
	}
	for _, f := range fs {
		out[f.field] = f.scale
	}
	return out
}

// LexicalOptions configures NewLexical. The zero value gives the default
// embedder.
type LexicalOptions struct {
	Dim     int             // vector length; DefaultLexicalDim when 0
	Lexicon *Lexicon        // nil: the embedded WordNet lexicon
	Weights *LexicalWeights // nil: DefaultLexicalWeights
}

// Lexical is the default offline embedder: a deterministic lexical-semantic
// vector computed in pure Go with no model download.
//
// How it embeds a text: the text is tokenised (contractions expanded), each
// content word (function words and negators are skipped: negation changes
// the truth of a sentence, not what it is about) is lemmatised with WordNet's
// morphology and stemmed (Porter), and contributes these features, each
// weighted by the word's inverse document frequency:
//   - its stem;
//   - its most frequent WordNet senses (synsets), so that synonyms such as
//     "kid" and "child" share features, and their hypernyms up to two levels
//     with a decaying weight, so that "boy" and "child" (both kinds of
//     person) are close;
//   - its character trigrams (spelling and derivation variants);
//   - its dense WordNet-graph vector (64 dimensions derived from the synsets
//     and glosses around its senses, shipped in the binary), which gives
//     graded similarity between words that share no sense or close
//     hypernym ("eat" and "lunch", "guitar" and "flute"); the text's dense
//     vectors are summed and the sum is hashed into the vector like the
//     other features;
//   - and consecutive content-word pairs carry a little word order, as do
//     a preposition with the content word after it ("into the pool"), the
//     agent and patient (read off the surface, passives included) and the
//     agent-verb and verb-patient pairs.
//
// Beside these hashed features, the vector's last 100 dimensions hold the
// text's distributional vector: the GloVe vectors of its words (function
// words included, negators not) averaged with smooth inverse frequency
// weights, so that frequent words count little, from vectors whose common
// component was removed when they were generated (see glove.go). GloVe
// learnt from running text which words occur in the same contexts, which
// relates "the attorney submitted a motion" to "the lawyer filed the
// appeal" where WordNet links little. The two parts are normalised apiece
// and weighted so that the cosine of two texts is a blend of the two
// cosines (LexicalWeights.Distributional).
//
// An inflection picks the part of speech whose senses are used: "slicing"
// takes the verb "slice" (a kind of cutting), not the more frequent noun.
//
// Features are hashed with signed feature hashing into the other Dim-100
// dimensions and the vector is L2-normalised. IDF comes from a background
// corpus (the WordNet glosses) and can be adapted to a session with Observe.
//
// Lexical is safe for concurrent use.
type Lexical struct {
	dim   int
	feat  int // the dimensions of the hashed features: dim minus the distributional ones
	model string
	lex   func() *Lexicon // the lexicon, loaded on first use
	w     LexicalWeights

	mu      sync.RWMutex
	obsDocs int
	obsDF   map[string]int
	cache   map[string]*tokenInfo // token -> weighted features (IDF applied)
}

type tokenInfo struct {
	stem  string
	idf   float64
	feats []feature
	// dense is the word's dense vector as stored in the embedded image (a
	// view of it, not a copy: the cache holds thousands of tokens), and
	// denseScale its weight ("": none).
	dense      string
	denseScale float64
	// glove is the word's distributional vector (a view of the embedded
	// image) and gloveW its weight ("": none).
	glove  string
	gloveW float32
}

type feature struct {
	h uint64
	w float32
}

const tokenCacheMax = 1 << 13

// NewLexical returns the offline lexical embedder.
func NewLexical(opts LexicalOptions) (*Lexical, error) {
	e := &Lexical{dim: opts.Dim, lex: LexiconOr(opts.Lexicon), w: DefaultLexicalWeights()}
	if e.dim == 0 {
		e.dim = DefaultLexicalDim
	}
	if opts.Weights != nil {
		e.w = *opts.Weights
	}
	e.feat = e.dim
	if e.w.Distributional > 0 {
		e.feat -= gloveDim
	}
	if e.w.Distributional < 0 || e.w.Distributional >= 1 {
		return nil, fmt.Errorf("lexical embedder: Distributional weight %v, want 0 ≤ weight < 1", e.w.Distributional)
	}
	if e.feat < 16 {
		return nil, fmt.Errorf("lexical embedder: dimension %d too small (want at least %d)", e.dim, e.dim-e.feat+16)
	}
	e.obsDF = map[string]int{}
	e.cache = map[string]*tokenInfo{}
	e.model = fmt.Sprintf("%s+%s+%s+%s/%d", lexicalAlgorithm, LexiconVersion, WordVectorsVersion, GloveVersion, e.dim)
	if e.w != DefaultLexicalWeights() {
		// Non-default weights give different vectors: name them apart.
		e.model += fmt.Sprintf("~%08x", uint32(hashStr('W', fmt.Sprintf("%+v", e.w))))
	}
	return e, nil
}

// Model returns a stable id naming the algorithm, lexicon, word vectors,
// distributional vectors and dimension, e.g.
// "thinkgraph-lexical-v4+wn30-3+wv1+gv1/512", with a "~hash"
// suffix when the weights are not the defaults.
func (e *Lexical) Model() string { return e.model }

// Dim returns the vector length.
func (e *Lexical) Dim() int { return e.dim }

// Lexicon returns the lexicon the embedder uses.
func (e *Lexical) Lexicon() *Lexicon { return e.lex() }

// Embed returns one L2-normalised vector per text. It never fails except
// when ctx is done.
func (e *Lexical) Embed(ctx context.Context, texts []string) ([]Vector, error) {
	out := make([]Vector, len(texts))
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = e.EmbedText(t)
	}
	return out, nil
}

// Observe adds texts to the session's document-frequency statistics, which
// are blended with the background corpus to weight words: words frequent in
// this session count less. Vectors computed before and after Observe are
// not exactly comparable; callers that persist vectors should observe a
// session's texts before embedding them or re-embed afterwards.
func (e *Lexical) Observe(texts ...string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, t := range texts {
		seen := map[string]bool{}
		for _, tok := range Tokenize(t) {
			if stopWords[tok] {
				continue
			}
			s := e.stemOf(tok)
			if !seen[s] {
				seen[s] = true
				e.obsDF[s]++
			}
		}
		e.obsDocs++
	}
	clear(e.cache)
}

// stemOf lemmatises then stems a token.
func (e *Lexical) stemOf(tok string) string {
	if IsNumber(tok) {
		return tok
	}
	if l := e.lex().Lemma(tok); l != "" {
		return Stem(l)
	}
	return Stem(tok)
}

// idf blends background and session document frequencies. Callers hold mu.
func (e *Lexical) idf(stem string) float64 {
	df, n := e.lex().DocFreq(stem)
	if e.obsDocs > 0 {
		// Session documents count as much as 20 background documents each,
		// capped so that a handful of thoughts cannot dominate.
		scale := math.Min(20, float64(n)/float64(e.obsDocs)/10)
		df += int(float64(e.obsDF[stem]) * scale)
		n += int(float64(e.obsDocs) * scale)
	}
	v := math.Log(float64(n+1)/float64(df+1)) + 1
	if e.w.IDFPower != 1 {
		v = math.Pow(v, e.w.IDFPower)
	}
	return v
}

// EmbedText embeds one text.
func (e *Lexical) EmbedText(text string) Vector {
	var buf [48]string
	toks := AppendTokens(buf[:0], text)
	out := make([]float32, e.dim)
	acc := out[:e.feat] // the hashed features; out[e.feat:] the distributional part
	dist := out[e.feat:]
	prev := ""
	prevIDF := 0.0
	prep := "" // the preposition before the next content word
	negated := false
	var denseBuf [maxWordVecDim]float32
	dense := denseBuf[:e.denseDim()]
	for _, tok := range toks {
		if negators[tok] {
			negated = true
		}
		if stopWords[tok] {
			if len(dist) > 0 && !negators[tok] {
				// Function words count too, but little: they are frequent.
				// Negators do not: they change what a text claims, not
				// what it is about.
				g, gw := gloveRow(tok, "")
				addRow(dist, g, gw)
			}
			if e.w.StopWord > 0 {
				e.add(acc, hashStr('f', tok), e.w.StopWord)
			}
			if prepositions[tok] && (prep == "" || tok != "of") {
				prep = tok
			}
			continue
		}
		ti := e.tokenFeatures(tok)
		stem, idf := ti.stem, ti.idf
		if prep != "" && e.w.Prep > 0 {
			e.add(acc, hashStr2('p', prep, stem), e.w.Prep*idf)
		}
		prep = ""
		for _, f := range ti.feats {
			e.addRaw(acc, f.h, f.w)
		}
		addRow(dist, ti.glove, ti.gloveW)
		if ti.dense != "" {
			// Summed here, hashed once per text below.
			for i := range dense {
				dense[i] += float32(ti.denseScale * float64(int8(ti.dense[i])))
			}
		}
		if negated && e.w.Negation > 0 {
			// A word in a negated clause also gets a negated twin feature:
			// "no man is running" stays close to "a man is running" but
			// less than a paraphrase would, and two unrelated negated
			// sentences share nothing through the negation.
			e.add(acc, hashStr('n', stem), e.w.Negation*idf)
		}
		if e.w.Bigram > 0 && prev != "" {
			e.add(acc, hashStr2('b', prev, stem), e.w.Bigram*(idf+prevIDF)/2)
		}
		prev, prevIDF = stem, idf
	}
	if e.w.Role > 0 {
		e.addRoles(acc, toks)
	}
	for i, x := range dense {
		if x != 0 {
			e.addRaw(acc, densePos[i], x)
		}
	}
	if len(dist) > 0 {
		// Each part normalised, then weighted, so that cosines blend.
		scaleTo(acc, math.Sqrt(1-e.w.Distributional))
		scaleTo(dist, math.Sqrt(e.w.Distributional))
	}
	if !scaleTo(out, 1) {
		// An empty text still gets a unit vector so that cosines are defined.
		out[0] = 1
	}
	return out
}

// addRow adds w times an int8 row to acc ("" adds nothing).
func addRow(acc []float32, row string, w float32) {
	if row == "" {
		return
	}
	for i := range acc {
		acc[i] += w * float32(int8(row[i]))
	}
}

// scaleTo scales v to length n and reports whether it could (false when v
// is zero).
func scaleTo(v []float32, n float64) bool {
	var norm float64
	for _, x := range v {
		norm += float64(x) * float64(x)
	}
	if norm == 0 {
		return false
	}
	k := float32(n / math.Sqrt(norm))
	for i := range v {
		v[i] *= k
	}
	return true
}

// prepositions are the stop words that relate a content word to what
// precedes it.
var prepositions = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`in on at to from by with for about into onto over under
		up down out off after before during through across behind around against toward
		towards beside among within along near inside outside`) {
		m[w] = true
	}
	return m
}()

// addRoles adds features for who does what to whom, read off the surface:
// in "a dog is chasing a cat" the agent is the first content word and the
// patient the first content word after the verb (the first -ing word); in
// the passive "a cat is being chased by a dog" the agent follows "by" and
// the patient comes first.
func (e *Lexical) addRoles(acc []float32, toks []string) {
	first, verb, by, passive, pverb := -1, -1, -1, false, -1
	for i, t := range toks {
		switch {
		case t == "being" || t == "been":
			passive = true
			if pverb < 0 {
				pverb = i
			}
		case t == "by" && passive && by < 0:
			by = i
		case stopWords[t] || negators[t]:
		case first < 0:
			first = i
		case verb < 0 && strings.HasSuffix(t, "ing"):
			verb = i
		}
	}
	next := func(from int) int {
		for i := from + 1; i < len(toks); i++ {
			if !stopWords[toks[i]] && !negators[toks[i]] {
				return i
			}
		}
		return -1
	}
	agent, patient := first, -1
	if verb >= 0 {
		patient = next(verb)
	}
	if by >= 0 {
		agent, patient = next(by), first
	}
	for _, r := range []struct {
		kind byte
		i    int
	}{{'A', agent}, {'P', patient}} {
		if r.i < 0 {
			continue
		}
		ti := e.tokenFeatures(toks[r.i])
		e.add(acc, hashStr(r.kind, ti.stem), e.w.Role*ti.idf)
	}
	if e.w.Pred <= 0 {
		return
	}
	// Predicate pairs: who does what, and what is done to what.
	if verb < 0 && passive {
		verb = next(pverb)
	}
	if verb < 0 || verb == agent || verb == patient {
		return
	}
	vt := e.tokenFeatures(toks[verb])
	vstem, vidf := vt.stem, vt.idf
	for _, r := range []struct {
		kind byte
		i    int
	}{{'V', agent}, {'O', patient}} {
		if r.i < 0 {
			continue
		}
		ti := e.tokenFeatures(toks[r.i])
		e.add(acc, hashStr2(r.kind, ti.stem, vstem), e.w.Pred*(ti.idf+vidf)/2)
	}
}

func (e *Lexical) add(acc []float32, h uint64, w float64) { e.addRaw(acc, h, float32(w)) }

func (e *Lexical) addRaw(acc []float32, h uint64, w float32) {
	i := (h >> 1) % uint64(len(acc))
	if h&1 == 1 {
		w = -w
	}
	acc[i] += w
}

// tokenFeatures returns the weighted features of one content token, its
// stem and IDF, from the cache when possible. The result must not be
// modified.
func (e *Lexical) tokenFeatures(tok string) *tokenInfo {
	e.mu.RLock()
	ti, ok := e.cache[tok]
	e.mu.RUnlock()
	if ok {
		return ti
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	ti = e.computeFeatures(tok)
	if len(e.cache) >= tokenCacheMax {
		clear(e.cache)
	}
	e.cache[tok] = ti
	return ti
}

// denseDim is the length of the dense word vectors the embedder adds (0
// when it adds none).
func (e *Lexical) denseDim() int {
	if e.w.Dense <= 0 {
		return 0
	}
	return defaultWordVectors().dim
}

// densePos[i] is the signed hash position of dense dimension i.
var densePos = func() (p [maxWordVecDim]uint64) {
	for i := range p {
		p[i] = hashInt('d', int32(i))
	}
	return p
}()

// computeFeatures builds the features of a token. Callers hold mu.
func (e *Lexical) computeFeatures(tok string) *tokenInfo {
	w := e.w
	lemma := ""
	stem := tok
	if !IsNumber(tok) {
		lemma = e.lex().Lemma(tok)
		if lemma != "" {
			stem = Stem(lemma)
		} else {
			stem = Stem(tok)
		}
	}
	idf := e.idf(stem)
	if lemma != "" {
		if ss := e.sensesOf(tok, lemma); len(ss) > 0 {
			if f := ss[0].Field; int(f) < len(w.FieldScale) && w.FieldScale[f] > 0 {
				idf *= w.FieldScale[f]
			}
		}
	}
	// Built in a buffer, kept at its exact length: the token cache holds
	// thousands of these.
	var featBuf [32]feature
	feats := featBuf[:0]
	push := func(h uint64, x float64) { feats = append(feats, feature{h, float32(x)}) }
	push(hashStr('w', stem), w.Word*idf)
	if lemma != "" && w.Synset > 0 {
		senses := e.sensesOf(tok, lemma)
		if w.MaxSenses > 0 && len(senses) > w.MaxSenses {
			senses = senses[:w.MaxSenses]
		}
		total := float32(0)
		for _, s := range senses {
			total += s.Weight
		}
		for _, s := range senses {
			sw := float64(s.Weight)
			if w.SenseNorm {
				sw /= float64(total)
			}
			base := w.Synset * idf * sw
			push(hashInt('s', s.Synset), base)
			if w.Field > 0 {
				push(hashInt('l', int32(s.Field)), w.Field*idf*sw)
			}
			level := []int32{s.Synset}
			for d := 1; d <= w.Levels && w.Hypernym > 0; d++ {
				base *= w.Hypernym
				var next []int32
				for _, id := range level {
					for _, p := range e.lex().Hypernyms(id) {
						push(hashInt('s', p), base)
						next = append(next, p)
					}
				}
				level = next
			}
		}
	}
	var dense string
	var denseScale float64
	if lemma != "" && w.Dense > 0 {
		wv := defaultWordVectors()
		v := wv.vector(e.senseLemma(tok, lemma))
		if v == "" {
			v = wv.vector(lemma)
		}
		n := 0.0
		for i := 0; i < len(v); i++ {
			n += float64(int8(v[i])) * float64(int8(v[i]))
		}
		if n > 0 {
			dense, denseScale = v, w.Dense*idf/math.Sqrt(n)
		}
	}
	var glove string
	var gloveW float32
	if w.Distributional > 0 {
		glove, gloveW = gloveRow(tok, lemma)
	}
	if w.CharGram > 0 && len(tok) >= 3 && !IsNumber(tok) {
		g := "^" + tok + "$"
		n := len(g) - 2
		cw := w.CharGram * idf / math.Sqrt(float64(n))
		for i := 0; i+3 <= len(g); i++ {
			push(hashStr('c', g[i:i+3]), cw)
		}
	}
	return &tokenInfo{stem: stem, idf: idf, feats: slices.Clone(feats), dense: dense, denseScale: denseScale, glove: glove, gloveW: gloveW}
}

// sensesOf returns the senses of a content token, most likely first. An
// inflection tells the part of speech: "slicing" is a verb (the lexicon
// lists the noun "slice" first) and keeps only its verb senses, "slices" a
// noun.
func (e *Lexical) sensesOf(tok, lemma string) []Sense {
	sl := e.senseLemma(tok, lemma)
	ss := e.lex().Senses(sl)
	if !e.w.VerbForms || tok == sl || len(ss) < 2 {
		return ss
	}
	lo, hi := uint8(0), uint8(0)
	switch {
	case strings.HasSuffix(tok, "ing") || strings.HasSuffix(tok, "ed"):
		lo, hi = fieldVerbFirst, fieldVerbLast
	case strings.HasSuffix(tok, "s") && !strings.HasSuffix(sl, "s"):
		lo, hi = fieldNounFirst, fieldNounLast
	default:
		return ss
	}
	in := func(s Sense) bool { return s.Field >= lo && s.Field <= hi }
	if !slices.ContainsFunc(ss, func(s Sense) bool { return !in(s) }) {
		return ss
	}
	out := make([]Sense, 0, len(ss))
	for _, s := range ss {
		if in(s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return ss
	}
	return out
}

// WordNet lexicographer files of nouns (noun.Tops .. noun.time) and verbs
// (verb.body .. verb.weather).
const (
	fieldNounFirst, fieldNounLast = 3, 28
	fieldVerbFirst, fieldVerbLast = 29, 43
)

// senseLemma picks the lemma whose senses describe an inflected token: the
// base form when the token carries an inflection ("cutting" → "cut", not
// the noun "cutting"), else the lemma itself.
func (e *Lexical) senseLemma(tok, lemma string) string {
	if lemma != tok {
		return lemma
	}
	if ls := e.lex().Lemmas(tok); len(ls) > 1 {
		return ls[1]
	}
	return lemma
}

// FNV-1a based feature hashing with a final avalanche mix.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

func hashStr(kind byte, s string) uint64 {
	h := uint64(fnvOffset)
	h ^= uint64(kind)
	h *= fnvPrime
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return mix64(h)
}

func hashStr2(kind byte, a, b string) uint64 {
	h := uint64(fnvOffset)
	h ^= uint64(kind)
	h *= fnvPrime
	for i := 0; i < len(a); i++ {
		h ^= uint64(a[i])
		h *= fnvPrime
	}
	h ^= ' '
	h *= fnvPrime
	for i := 0; i < len(b); i++ {
		h ^= uint64(b[i])
		h *= fnvPrime
	}
	return mix64(h)
}

func hashInt(kind byte, v int32) uint64 {
	return mix64(uint64(kind)<<40 ^ uint64(uint32(v)) ^ 0x9e3779b97f4a7c15)
}

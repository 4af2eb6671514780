package tor_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/tor"
)

func TestRollSeedExamples(t *testing.T) {
	tests := []struct {
		name    string
		faces   []int // d12, then the d6s
		tn      int
		total   int
		success bool
		quality tor.Quality
		outcome tor.Outcome
		eye     bool
		rune    bool
	}{
		// Lodin's Atletismo ◊◊◊: d12 = 7, 3d6 = 3+6+2: 18 vs 14, a great success.
		{"lodin great success", []int{7, 3, 6, 2}, 14, 18, true, tor.QualityGreat, tor.OutcomeSuccess, false, false},
		// The rune is an automatic success whatever the d6s show.
		{"rune low dice", []int{12, 1, 1, 1}, 14, 15, true, tor.QualitySuccess, tor.OutcomeSuccess, false, true},
		{"rune beats any TN", []int{12, 1, 1, 1}, 40, 15, true, tor.QualitySuccess, tor.OutcomeSuccess, false, true},
		{"rune with two sixes", []int{12, 6, 1, 6}, 14, 25, true, tor.QualityExtraordinary, tor.OutcomeSuccess, false, true},
		// The Eye counts 0: the 3d6 alone must make 14.
		{"eye needs 14 on the d6s: 13 fails", []int{11, 5, 5, 3}, 14, 13, false, tor.QualityNone, tor.OutcomeFailure, true, false},
		{"eye needs 14 on the d6s: 14 succeeds", []int{11, 4, 5, 5}, 14, 14, true, tor.QualitySuccess, tor.OutcomeSuccess, true, false},
		{"eye with two sixes", []int{11, 6, 6, 2}, 14, 14, true, tor.QualityExtraordinary, tor.OutcomeSuccess, true, false},
		{"total equal to TN succeeds", []int{8, 2, 2, 2}, 14, 14, true, tor.QualitySuccess, tor.OutcomeSuccess, false, false},
		{"one below TN fails", []int{7, 2, 2, 2}, 14, 13, false, tor.QualityNone, tor.OutcomeFailure, false, false},
		{"sixes on a failure give no quality", []int{1, 6, 1, 1}, 14, 9, false, tor.QualityNone, tor.OutcomeFailure, false, false},
		{"rank 0 success", []int{10}, 10, 10, true, tor.QualitySuccess, tor.OutcomeSuccess, false, false},
		{"rank 0 failure", []int{9}, 10, 9, false, tor.QualityNone, tor.OutcomeFailure, false, false},
		{"rank 0 rune", []int{12}, 20, 12, true, tor.QualitySuccess, tor.OutcomeSuccess, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tor.Roll(dice.NewFaces(tt.faces...), len(tt.faces)-1, tt.tn)
			if err != nil {
				t.Fatalf("Roll() error = %v", err)
			}
			if got.Total != tt.total || got.Success != tt.success || got.Quality != tt.quality || got.Outcome != tt.outcome {
				t.Errorf("Roll(%v vs %d) = total %d success %v quality %q outcome %q; want %d %v %q %q",
					tt.faces, tt.tn, got.Total, got.Success, got.Quality, got.Outcome, tt.total, tt.success, tt.quality, tt.outcome)
			}
			if got.Eye != tt.eye || got.Rune != tt.rune {
				t.Errorf("eye, rune = %v, %v; want %v, %v", got.Eye, got.Rune, tt.eye, tt.rune)
			}
			if !slices.Equal(got.Faces(), tt.faces) {
				t.Errorf("Faces() = %v, want %v", got.Faces(), tt.faces)
			}
			if got.TN != tt.tn || got.Rank() != len(tt.faces)-1 || got.Feat != tt.faces[0] {
				t.Errorf("tn, rank, feat = %d, %d, %d; want %d, %d, %d", got.TN, got.Rank(), got.Feat, tt.tn, len(tt.faces)-1, tt.faces[0])
			}
		})
	}
}

func TestQualityBySixes(t *testing.T) {
	tests := []struct {
		dice  []int
		sixes int
		want  tor.Quality
	}{
		{[]int{2, 3, 4}, 0, tor.QualitySuccess},
		{[]int{6, 3, 4}, 1, tor.QualityGreat},
		{[]int{6, 6, 4}, 2, tor.QualityExtraordinary},
		{[]int{6, 6, 6}, 3, tor.QualityExtraordinary},
		{[]int{6, 6, 6, 6, 6, 6}, 6, tor.QualityExtraordinary},
		{[]int{5, 5, 5, 5, 5, 5}, 0, tor.QualitySuccess},
	}
	for _, tt := range tests {
		got, err := tor.Judge(1, 10, tt.dice)
		if err != nil {
			t.Fatalf("Judge(%v) error = %v", tt.dice, err)
		}
		if got.Sixes != tt.sixes || got.Quality != tt.want {
			t.Errorf("Judge(%v) = %d sixes, %q; want %d, %q", tt.dice, got.Sixes, got.Quality, tt.sixes, tt.want)
		}
		if q := tor.QualityOf(tt.sixes); q != tt.want {
			t.Errorf("QualityOf(%d) = %q, want %q", tt.sixes, q, tt.want)
		}
	}
}

// recorder is a Roller that records the dice asked for.
type recorder struct {
	sides []int
}

func (r *recorder) Roll(sides int) (int, error) {
	r.sides = append(r.sides, sides)
	return 1, nil
}

func TestRollDrawOrder(t *testing.T) {
	for rank := 0; rank <= tor.MaxRank; rank++ {
		var rec recorder
		if _, err := tor.Roll(&rec, rank, tor.DefaultTN); err != nil {
			t.Fatalf("Roll(rank %d) error = %v", rank, err)
		}
		want := []int{12}
		for range rank {
			want = append(want, 6)
		}
		if !slices.Equal(rec.sides, want) {
			t.Errorf("rank %d drew %v, want %v", rank, rec.sides, want)
		}
	}
}

func TestRollErrors(t *testing.T) {
	tests := []struct {
		name    string
		roller  dice.Roller
		rank    int
		tn      int
		wantErr error
	}{
		{"rank 7", &recorder{}, 7, 14, tor.ErrInvalidRoll},
		{"rank -1", &recorder{}, -1, 14, tor.ErrInvalidRoll},
		{"tn 0", &recorder{}, 3, 0, tor.ErrInvalidRoll},
		{"tn 100", &recorder{}, 3, 100, tor.ErrInvalidRoll},
		{"nil roller", nil, 3, 14, tor.ErrInvalidRoll},
		{"dice run out", dice.NewFaces(7, 3), 3, 14, dice.ErrExhausted},
		{"no feat die", dice.NewFaces(), 3, 14, dice.ErrExhausted},
		{"face too big for a d6", dice.NewFaces(7, 3, 9, 1), 3, 14, dice.ErrInvalidFace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tor.Roll(tt.roller, tt.rank, tt.tn)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Roll() error = %v, want %v", err, tt.wantErr)
			}
			if rec, ok := tt.roller.(*recorder); ok && len(rec.sides) != 0 {
				t.Errorf("bad input drew dice %v", rec.sides)
			}
		})
	}
}

func TestJudgeErrors(t *testing.T) {
	tests := []struct {
		name    string
		tn      int
		feat    int
		success []int
	}{
		{"feat 0", 14, 0, []int{1}},
		{"feat 13", 14, 13, []int{1}},
		{"d6 shows 7", 14, 5, []int{1, 7}},
		{"d6 shows 0", 14, 5, []int{0}},
		{"seven dice", 14, 5, []int{1, 1, 1, 1, 1, 1, 1}},
		{"tn -3", -3, 5, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tor.Judge(tt.tn, tt.feat, tt.success); !errors.Is(err, tor.ErrInvalidRoll) {
				t.Errorf("Judge() error = %v, want ErrInvalidRoll", err)
			}
		})
	}
}

func TestJudgeCopiesFaces(t *testing.T) {
	faces := []int{3, 6, 2}
	res, err := tor.Judge(14, 7, faces)
	if err != nil {
		t.Fatal(err)
	}
	faces[0] = 1
	if res.SuccessDice[0] != 3 {
		t.Errorf("result shares the caller's slice: %v", res.SuccessDice)
	}
}

// The roll draws from the journal-dice-v1 stream: test vector nonce 2 gives
// d12, 3d6 = 3, 6, 3, 4 (docs/design.md §3).
func TestRollFromStreamVector(t *testing.T) {
	var seed dice.Seed
	for i := range seed {
		seed[i] = byte(i)
	}
	res, err := tor.Roll(dice.NewStream(seed, "camp-1", "sess-1", 2, ""), 3, tor.DefaultTN)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(res.Faces()), "[3 6 3 4]"; got != want {
		t.Errorf("faces = %s, want %s", got, want)
	}
	if res.Total != 16 || res.Describe() != "great success" {
		t.Errorf("total %d %s, want 16 great success", res.Total, res.Describe())
	}
}

func TestResultString(t *testing.T) {
	tests := []struct {
		faces []int
		want  string
	}{
		{[]int{7, 3, 6, 2}, "d12 7 + 3,6,2 = 18 vs TN 14: great success"},
		{[]int{11, 1, 2}, "d12 eye (0) + 1,2 = 3 vs TN 14: failure"},
		{[]int{12}, "d12 rune = 12 vs TN 14: success"},
	}
	for _, tt := range tests {
		if got := roll(t, 14, tt.faces...).String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func BenchmarkRoll(b *testing.B) {
	var seed dice.Seed
	key := dice.NewKey(seed)
	var nonce uint64
	for b.Loop() {
		if _, err := tor.Roll(key.Stream("camp-1", "sess-1", nonce, ""), 3, tor.DefaultTN); err != nil {
			b.Fatal(err)
		}
		nonce++
	}
}

// FuzzJudge: no faces panic Judge, and a judged roll obeys the rules.
func FuzzJudge(f *testing.F) {
	f.Add(14, 7, []byte{3, 6, 2})
	f.Add(14, 11, []byte{6, 6})
	f.Add(0, 12, []byte{})
	f.Fuzz(func(t *testing.T, tn, feat int, raw []byte) {
		success := make([]int, len(raw))
		for i, b := range raw {
			success[i] = int(b % 8)
		}
		res, err := tor.Judge(tn, feat, success)
		if err != nil {
			if !errors.Is(err, tor.ErrInvalidRoll) {
				t.Fatalf("error %v is not ErrInvalidRoll", err)
			}
			return
		}
		if res.Success != (feat == 12 || res.Total >= tn) {
			t.Fatalf("success %v for total %d feat %d tn %d", res.Success, res.Total, feat, tn)
		}
		if (res.Quality == tor.QualityNone) == res.Success {
			t.Fatalf("quality %q with success %v", res.Quality, res.Success)
		}
	})
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		faces []int
		want  string
	}{
		{[]int{1, 2, 2}, "failure"},
		{[]int{10, 2, 2}, "success"},
		{[]int{10, 6, 2}, "great success"},
		{[]int{10, 6, 6}, "extraordinary success"},
	}
	for _, tt := range tests {
		if got := roll(t, 14, tt.faces...).Describe(); got != tt.want {
			t.Errorf("Describe(%v) = %q, want %q", tt.faces, got, tt.want)
		}
	}
}

func TestResultJSON(t *testing.T) {
	b, err := json.Marshal(roll(t, 14, 7, 3, 6, 2))
	require.NoError(t, err)
	want := `{"tn":14,"feat":7,"success_dice":[3,6,2],"eye":false,"rune":false,"sixes":1,"total":18,"success":true,"quality":"great","outcome":"success"}`
	if string(b) != want {
		t.Errorf("JSON = %s\nwant   %s", b, want)
	}
	var back tor.Result
	require.NoError(t, json.Unmarshal(b, &back))
	again, err := tor.Judge(back.TN, back.Feat, back.SuccessDice)
	require.NoError(t, err)
	if fmt.Sprint(again) != fmt.Sprint(back) {
		t.Errorf("re-judged %v, want %v", again, back)
	}
}

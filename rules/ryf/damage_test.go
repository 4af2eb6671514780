package ryf_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/ryf"
)

func TestParseDamage(t *testing.T) {
	tests := []struct {
		in   string
		want ryf.DamageDice
		err  error
	}{
		{"1d10", ryf.DamageDice{Count: 1, Sides: 10}, nil},
		{"2d6", ryf.DamageDice{Count: 2, Sides: 6}, nil},
		{"1d6-2", ryf.DamageDice{Count: 1, Sides: 6, Modifier: -2}, nil},
		{"d10", ryf.DamageDice{Count: 1, Sides: 10}, nil},
		{"1d10+1", ryf.DamageDice{Count: 1, Sides: 10, Modifier: 1}, nil},
		{" 3D8 + 2 ", ryf.DamageDice{Count: 3, Sides: 8, Modifier: 2}, nil},
		{"20d100+50", ryf.DamageDice{Count: 20, Sides: 100, Modifier: 50}, nil},
		{"1d6-50", ryf.DamageDice{Count: 1, Sides: 6, Modifier: -50}, nil},
		{"", ryf.DamageDice{}, ryf.ErrSyntax},
		{"10", ryf.DamageDice{}, ryf.ErrSyntax},
		{"d", ryf.DamageDice{}, ryf.ErrSyntax},
		{"1d", ryf.DamageDice{}, ryf.ErrSyntax},
		{"xd6", ryf.DamageDice{}, ryf.ErrSyntax},
		{"-1d6", ryf.DamageDice{}, ryf.ErrSyntax},
		{"1d6+", ryf.DamageDice{}, ryf.ErrSyntax},
		{"1d6+-2", ryf.DamageDice{}, ryf.ErrSyntax},
		{"1d6-2-1", ryf.DamageDice{}, ryf.ErrSyntax},
		{"1d6d6", ryf.DamageDice{}, ryf.ErrSyntax},
		{"1d99999999999", ryf.DamageDice{}, ryf.ErrSyntax},
		{"0d6", ryf.DamageDice{}, ryf.ErrOutOfRange},
		{"21d6", ryf.DamageDice{}, ryf.ErrOutOfRange},
		{"1d1", ryf.DamageDice{}, ryf.ErrOutOfRange},
		{"1d101", ryf.DamageDice{}, ryf.ErrOutOfRange},
		{"1d6+51", ryf.DamageDice{}, ryf.ErrOutOfRange},
	}
	for _, tt := range tests {
		got, err := ryf.ParseDamage(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("ParseDamage(%q) = %+v, %v; want %+v, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
	for in, want := range map[string]string{"d10": "1d10", "1d6-2": "1d6-2", "2d6+0": "2d6", "1D10+1": "1d10+1"} {
		d, err := ryf.ParseDamage(in)
		require.NoError(t, err)
		if got := d.String(); got != want {
			t.Errorf("ParseDamage(%q).String() = %q, want %q", in, got, want)
		}
	}
}

func TestRollDamage(t *testing.T) {
	mandoble := ryf.DamageDice{Count: 2, Sides: 6}
	sword := ryf.DamageDice{Count: 1, Sides: 10}
	unarmed := ryf.DamageDice{Count: 1, Sides: 6, Modifier: -2}
	tests := []struct {
		name     string
		dice     ryf.DamageDice
		critical bool
		faces    []int
		chains   [][]int
		raw      int
		total    int
	}{
		// "Sacamos un 3 y un 6 (2d6) con el mandoble. El 6 lo volvemos a tirar y sale otro 6.
		// Lo tiramos de nuevo y sale un 1. ... 3+6+6+1 = 16."
		{"mandoble 3+6+6+1", mandoble, false, []int{3, 6, 6, 1}, [][]int{{3}, {6, 6, 1}}, 16, 16},
		{"explosion before the next die", mandoble, false, []int{6, 2, 4}, [][]int{{6, 2}, {4}}, 12, 12},
		{"sword 6, critical doubles", sword, true, []int{6}, [][]int{{6}}, 6, 12},
		{"sword explodes", sword, false, []int{10, 10, 3}, [][]int{{10, 10, 3}}, 23, 23},
		{"unarmed 1d6-2", unarmed, false, []int{5}, [][]int{{5}}, 3, 3},
		{"unarmed never below 0", unarmed, false, []int{1}, [][]int{{1}}, -1, 0},
		{"unarmed 0 doubled is 0", unarmed, true, []int{2}, [][]int{{2}}, 0, 0},
		{"unarmed explodes", unarmed, false, []int{6, 6, 2}, [][]int{{6, 6, 2}}, 12, 12},
		{"critical after the modifier", unarmed, true, []int{6, 1}, [][]int{{6, 1}}, 5, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := dice.NewFaces(tt.faces...)
			got, err := ryf.RollDamage(tt.dice, tt.critical, src)
			require.NoError(t, err)
			if src.Remaining() != 0 {
				t.Errorf("%d faces unused", src.Remaining())
			}
			if len(got.Chains) != len(tt.chains) {
				t.Fatalf("chains = %v, want %v", got.Chains, tt.chains)
			}
			for i := range tt.chains {
				if !intsEqual(got.Chains[i], tt.chains[i]) {
					t.Errorf("chain %d = %v, want %v", i, got.Chains[i], tt.chains[i])
				}
			}
			if !intsEqual(got.Faces(), tt.faces) {
				t.Errorf("faces = %v, want %v", got.Faces(), tt.faces)
			}
			if got.Raw != tt.raw || got.Total != tt.total {
				t.Errorf("raw, total = %d, %d; want %d, %d", got.Raw, got.Total, tt.raw, tt.total)
			}
		})
	}
}

func TestRollDamageErrors(t *testing.T) {
	d6 := ryf.DamageDice{Count: 1, Sides: 6}
	if _, err := ryf.RollDamage(ryf.DamageDice{}, false, dice.NewFaces(1)); !errors.Is(err, ryf.ErrOutOfRange) {
		t.Errorf("zero dice: err = %v, want ErrOutOfRange", err)
	}
	if _, err := ryf.RollDamage(d6, false, tens{}); !errors.Is(err, ryf.ErrRunaway) {
		t.Errorf("always max: err = %v, want ErrRunaway", err)
	}
	if _, err := ryf.RollDamage(d6, false, dice.NewFaces(6)); !errors.Is(err, dice.ErrExhausted) {
		t.Errorf("exhausted: err = %v, want ErrExhausted", err)
	}
	if _, err := ryf.RollDamage(d6, false, badRoller(7)); !errors.Is(err, dice.ErrInvalidFace) {
		t.Errorf("bad face: err = %v, want ErrInvalidFace", err)
	}
	if _, err := ryf.RollDamage(d6, false, nil); err == nil {
		t.Error("nil roller: no error")
	}
}

func TestDamageDiceJSON(t *testing.T) {
	w := ryf.Weapon{Name: "Puños", Skill: "Pelea", Damage: ryf.DamageDice{Count: 1, Sides: 6, Modifier: -2}}
	b, err := json.Marshal(w)
	require.NoError(t, err)
	if want := `{"name":"Puños","skill":"Pelea","damage":"1d6-2","precision":0}`; string(b) != want {
		t.Errorf("json = %s, want %s", b, want)
	}
	var back ryf.Weapon
	require.NoError(t, json.Unmarshal(b, &back))
	if back != w {
		t.Errorf("round trip = %+v, want %+v", back, w)
	}
	if err := json.Unmarshal([]byte(`{"damage":"1d1"}`), &back); !errors.Is(err, ryf.ErrOutOfRange) {
		t.Errorf("bad dice: err = %v, want ErrOutOfRange", err)
	}
	var zero ryf.DamageDice
	if err := zero.UnmarshalText(nil); err != nil || zero != (ryf.DamageDice{}) {
		t.Errorf("empty text = %+v, %v", zero, err)
	}
}

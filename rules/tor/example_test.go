package tor_test

import (
	"errors"
	"fmt"

	"github.com/campaign-journal/journal/rules/dice"
	"github.com/campaign-journal/journal/rules/tor"
)

// Lodin climbs a tree: Atletismo ◊◊◊ against TN 14. The feat die shows 7
// and the success dice 3, 6 and 2: 18, a great success.
func ExampleRoll() {
	res, err := tor.Roll(dice.NewFaces(7, 3, 6, 2), 3, tor.DefaultTN)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res)
	fmt.Println(res.Faces(), res.Total, res.Success, res.Quality)
	// Output:
	// d12 7 + 3,6,2 = 18 vs TN 14: great success
	// [7 3 6 2] 18 true great
}

// The rune is an automatic success whatever the success dice show; the Eye
// counts 0.
func ExampleRoll_runeAndEye() {
	auto, _ := tor.Roll(dice.NewFaces(12, 1, 1, 1), 3, 20)
	eye, _ := tor.Roll(dice.NewFaces(11, 5, 5, 3), 3, 14)
	fmt.Println(auto)
	fmt.Println(eye)
	// Output:
	// d12 rune + 1,1,1 = 15 vs TN 20: success
	// d12 eye (0) + 5,5,3 = 13 vs TN 14: failure
}

// A roll from a session's committed stream (docs/design.md §3 test vector,
// nonce 2): the d12 first, then the d6s.
func ExampleRoll_stream() {
	var seed dice.Seed
	for i := range seed {
		seed[i] = byte(i)
	}
	res, _ := tor.Roll(dice.NewStream(seed, "camp-1", "sess-1", 2, ""), 3, tor.DefaultTN)
	fmt.Println(res.Faces(), res.Outcome, res.Quality)
	// Output: [3 6 3 4] success great
}

// Replay re-judges a roll from its recorded faces.
func ExampleJudge() {
	res, _ := tor.Judge(14, 10, []int{6, 6, 1})
	fmt.Println(res.Total, res.Sixes, res.Outcome, res.Quality)
	// Output: 23 2 success extraordinary
}

// Lodin fails with 12; spending Hope adds Cuerpo 4 (16), or his favoured
// Cuerpo 6 if Atletismo is favoured (18).
func ExampleSpendHope() {
	lodin := tor.Character{
		Attributes: tor.Attributes{Cuerpo: tor.Score{Basic: 4, Favoured: 6}},
		Skills:     tor.Ratings{"Atletismo": {Rank: 3}},
		Hope:       1, MaxHope: 10,
	}
	atletismo, _ := tor.LookupSkill("atletismo")
	failed, _ := tor.Roll(dice.NewFaces(5, 3, 2, 2), 3, 14)

	spend, _ := tor.SpendHope(lodin, atletismo, failed)
	fmt.Println(spend.Result)
	fmt.Println("hope left:", spend.Hope, "last hope:", spend.LastHope)

	lodin.Skills["Atletismo"] = tor.SkillRating{Rank: 3, Favoured: true}
	spend, _ = tor.SpendHope(lodin, atletismo, failed)
	fmt.Println(spend.Result.Total)

	lodin.Hope = 0
	_, err := tor.SpendHope(lodin, atletismo, failed)
	fmt.Println(err)
	// Output:
	// d12 5 + 3,2,2 + hope 4 = 16 vs TN 14: success
	// hope left: 0 last hope: true
	// 18
	// no hope left: hope is 0
}

// Skills are found without accents or case, by English name and by unique
// prefix.
func ExampleLookupSkill() {
	for _, name := range []string{"cancion", "STEALTH", "guer", "pers"} {
		s, err := tor.LookupSkill(name)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(s.Name, s.Group, s.Attribute)
	}
	// Output:
	// Canción Costumbre Cuerpo
	// Sigilo Movimiento Mente
	// Guerrear Oficio Corazón
	// ambiguous name: skill "pers" could be Persuadir, Perspicacia
}

func ExampleLookupGroup() {
	g, _ := tor.LookupGroup("vocation")
	fmt.Println(g, g.Skills())
	// Output: Oficio [Artesanía Guerrear Saber]
}

// "*" after a rank marks a favoured skill.
func ExampleParseSkills() {
	r, err := tor.ParseSkills("atletismo=3*, stealth=2, saber=1")
	fmt.Println(r, err)
	_, err = tor.ParseSkills("Atletismo=3,Volar=2")
	fmt.Println(err)
	// Output:
	// Atletismo=3*,Sigilo=2,Saber=1 <nil>
	// skill entry 2: unknown skill "Volar": want one of Impresionar, Inspirar, Persuadir, Atletismo, Viajar, Sigilo, Atención, Perspicacia, Buscar, Explorar, Curar, Cazar, Canción, Cortesía, Acertijos, Artesanía, Guerrear, Saber
}

func ExampleParseAttributes() {
	a, err := tor.ParseAttributes("Cuerpo=5/7,corazon=4/6,wits=3/5")
	fmt.Println(a, err)
	fmt.Println(a.Corazon.Basic, a.Corazon.Favoured)
	// Output:
	// Cuerpo=5/7,Corazón=4/6,Mente=3/5 <nil>
	// 4 6
}

// Validation reports every violation at once.
func ExampleCharacter_Validate() {
	c := tor.Character{
		Attributes: tor.Attributes{
			Cuerpo:  tor.Score{Basic: 5, Favoured: 7},
			Corazon: tor.Score{Basic: 4, Favoured: 3},
			Mente:   tor.Score{Basic: 3, Favoured: 5},
		},
		Skills:  tor.Ratings{"Atletismo": {Rank: 8}},
		Hope:    9,
		MaxHope: 8,
	}
	err := c.Validate()
	fmt.Println(errors.Is(err, tor.ErrInvalidCharacter))
	fmt.Println(err)
	// Output:
	// true
	// invalid character: attributes.corazon.favoured: 3 below basic 4; skills.Atletismo.rank: 8 not in 0..6; hope: 9 exceeds max_hope 8
}

// Four companions, one of them a hobbit: a pool of 5.
func ExampleStartingPool() {
	company := []tor.Character{{Culture: "Enanos"}, {Culture: "Hobbits de la Comarca"}, {Culture: "Hombres de Bree"}, {Culture: "Elfos"}}
	fmt.Println(tor.StartingPool(company))
	// Output: 5
}

// At least half of the votes must agree.
func ExampleVote_Tally() {
	v := tor.Vote{
		Requester:  "lodin",
		Fellowship: []string{"lodin", "bilba", "aragorn", "gimli", "legolas"},
		Ballots: []tor.Ballot{
			{Voter: "bilba", Agree: true}, {Voter: "aragorn", Agree: false},
			{Voter: "gimli", Agree: true}, {Voter: "legolas", Agree: false},
		},
	}
	t, err := v.Tally()
	fmt.Printf("%+v %v\n", t, err)
	v.Ballots = v.Ballots[:2]
	_, err = v.Tally()
	fmt.Println(err)
	// Output:
	// {Voters:4 Agree:2 Refuse:2 Granted:true} <nil>
	// vote incomplete: waiting for gimli, legolas
}

// Refused by the fellowship, Lodin takes the point anyway and gains Shadow.
func ExampleSpendFellowshipPoint() {
	lodin := tor.Character{Hope: 2, MaxHope: 10}
	v := tor.Vote{
		Requester:  "lodin",
		Fellowship: []string{"lodin", "bilba", "aragorn"},
		Ballots:    []tor.Ballot{{Voter: "bilba", Agree: false}, {Voter: "aragorn", Agree: false}},
	}
	s, _ := tor.SpendFellowshipPoint(lodin, 4, v, true)
	fmt.Printf("%s: hope %d, shadow %d, pool %d\n", s.Outcome, s.Hope, s.Shadow, s.Pool)
	s, _ = tor.SpendFellowshipPoint(lodin, 4, v, false)
	fmt.Printf("%s: hope %d, shadow %d, pool %d\n", s.Outcome, s.Hope, s.Shadow, s.Pool)
	// Output:
	// taken anyway: hope 3, shadow 1, pool 3
	// withdrawn: hope 2, shadow 0, pool 4
}

// Hope 2 below total Shadow 3, and the Eye: a bout of madness. It ends with
// a permanent Shadow and a flaw.
func ExampleMadnessTriggered() {
	c := tor.Character{Hope: 2, Shadow: 2, PermanentShadow: 1}
	eye, _ := tor.Roll(dice.NewFaces(11, 4, 4), 2, 14)
	fmt.Println(tor.MadnessTriggered(c, eye))
	c, _ = tor.BeginMadness(c, eye)
	c, _ = tor.EndMadness(c, "Desconfiado")
	fmt.Println(c.Mad, c.PermanentShadow, c.Flaws)
	// Output:
	// true
	// false 2 [Desconfiado]
}

func ExampleInvokeTrait() {
	c := tor.Character{Traits: []string{"Navegar en bote", "Herrería"}}
	inv, _ := tor.InvokeTrait(c, "herreria", false)
	fmt.Printf("%+v rolls: %v\n", inv, inv.Rolls())
	_, err := tor.InvokeTrait(c, "Nadar", true)
	fmt.Println(err)
	// Output:
	// {Trait:Herrería Automatic:false} rolls: true
	// unknown trait "Nadar": want one of Navegar en bote, Herrería
}

// A great success earns the 2nd box of a group; the 3rd also needs a trait
// invoked; a 4th is refused.
func ExampleNextAdvancement() {
	great, _ := tor.Roll(dice.NewFaces(7, 3, 6, 2), 3, 14)
	for count := range 4 {
		e, err := tor.NextAdvancement(great, false, count)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("box %d: %v (%s)\n", e.Box, e.Qualifies, e.Reason)
	}
	// Output:
	// box 1: true (a success)
	// box 2: true (a great success)
	// box 3: false (the 3rd point needs a great or extraordinary success with a trait invoked)
	// skill group already holds 3 advancement points
}

func ExampleGrantAdvancement() {
	c := tor.Character{}
	for range 4 {
		var err error
		if c, err = tor.GrantAdvancement(c, tor.Movimiento); err != nil {
			fmt.Println(err)
		}
	}
	// Output: skill group already holds 3 advancement points: Movimiento
}

// The fellowship phase banks the adventure's points, clears the groups and
// temporary Shadow, and resets the pool.
func ExampleFellowshipPhase() {
	company := []tor.Character{
		{Culture: "hobbit", Shadow: 2, PermanentShadow: 1, Advancement: map[tor.Group]int{tor.Oficio: 3, tor.Movimiento: 1}},
		{Culture: "Enanos", AdvancementTotal: 5, Advancement: map[tor.Group]int{tor.Costumbre: 2}},
	}
	after, pool := tor.FellowshipPhase(company)
	for _, c := range after {
		fmt.Println(c.AdvancementTotal, c.Advancement, c.Shadow, c.PermanentShadow)
	}
	fmt.Println("pool:", pool)
	// Output:
	// 4 map[] 0 1
	// 7 map[] 0 0
	// pool: 3
}

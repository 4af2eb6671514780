package command

// rollTOR drafts a The One Ring skill roll.
func (d *draft) rollTOR(req RollRequest) error {
	return invalid("The One Ring rolls are not recorded yet")
}

// createTORCharacter drafts a The One Ring character.
func (d *draft) createTORCharacter(req CreateCharacter) error {
	return invalid("The One Ring characters are not recorded yet")
}

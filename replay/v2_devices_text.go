package replay

import (
	"fmt"
	"io"
	"strings"

	"github.com/campaign-journal/journal/i18n"
)

// writeDevices writes the audit's list of a campaign's devices, one line
// each: user, name, fingerprint, who registered it, approved or revoked.
func writeDevices(w io.Writer, l i18n.Lang, devs []DeviceReport) {
	if len(devs) == 0 {
		return
	}
	fmt.Fprintln(w, "  "+l.N("rp2.devices", len(devs)))
	for _, d := range devs {
		var state []string
		if !d.Proved {
			state = append(state, l.T("rp2.device.unproved"))
		}
		if d.Approved {
			state = append(state, l.T("rp2.device.approved"))
		}
		if d.Revoked {
			state = append(state, l.T("rp2.device.revoked", d.RevokedBy))
		}
		if len(state) == 0 {
			state = append(state, l.T("rp2.device.active"))
		}
		name := d.Name
		if name == "" {
			name = "-"
		}
		fmt.Fprintln(w, "    "+l.T("rp2.device", d.User, name, d.Fingerprint, d.By, strings.Join(state, ", ")))
	}
}

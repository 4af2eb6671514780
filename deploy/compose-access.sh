#!/bin/sh
# The access service of docker-compose.yml: the credentials of the cluster,
# made by the journal and kept in the volume mounted at /data.
#
# At the first start (every `docker compose up` runs it), when
# /data/access.json is missing, it adds the journal's own user (its NATS
# password goes to /data/journal.password, for the journal service), a game
# master $JOURNAL_GM (default "gm") of campaign $JOURNAL_GM_CAMPAIGN (default
# "*", every campaign) and a dashboard "wall" (HTTP token only), and prints
# the GM's and the dashboard's credentials this once, to this service's log.
# Then, every time, it writes the NATS servers' authorization,
# /data/auth.conf, from the access file.
#
# With arguments, it then runs them as a journal command on the access file,
# for example:
#   docker compose run --rm access access add bea --role player --campaign mordor --character lodin
# and then writes /data/auth.conf again. ($JOURNAL_ACCESS_DIR replaces /data.)
set -eu

dir="${JOURNAL_ACCESS_DIR:-/data}"
access="$dir/access.json"
export JOURNAL_ACCESS="$access"

if [ ! -f "$access" ]; then
  # Built in new files and moved into place at the end, so that a start
  # that fails half-way leaves no access file and the next start begins
  # again.
  rm -f "$access.new" "$dir/journal.password.new"
  JOURNAL_ACCESS="$access.new" journal access add journal --role journal --no-token --password-file "$dir/journal.password.new" >/dev/null
  echo "== journal access: the first credentials of this cluster, shown this once (copy them, then: docker compose rm -f access)"
  JOURNAL_ACCESS="$access.new" journal access add "${JOURNAL_GM:-gm}" --role gm --campaign "${JOURNAL_GM_CAMPAIGN:-*}"
  JOURNAL_ACCESS="$access.new" journal access add wall --role dashboard --campaign "${JOURNAL_GM_CAMPAIGN:-*}" --no-password
  mv "$dir/journal.password.new" "$dir/journal.password"
  mv "$access.new" "$access"
fi
if [ "$#" -gt 0 ]; then
  journal "$@"
fi
journal access nats-config --out "$dir/auth.conf"

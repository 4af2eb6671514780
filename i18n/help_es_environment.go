package i18n

// The Spanish of 'journal help environment' (cmd/journal/help.go's
// environmentHelp): kept in a file of its own, added to helpLongES.
func init() { helpLongES["environment"] = environmentES }

const environmentES = `Opciones globales y el entorno

Cada orden acepta estas opciones; cada una puede darse también en el entorno.

  --data DIR, $JOURNAL_DATA (por defecto ./journal-data)
      La carpeta del almacén JetStream embebido. Se hace absoluta, y cada
      error la nombra. Solo las órdenes que registran algo la crean: las de
      lectura (show, list, log, export, replay...) informan «no hay diario
      en DIR». Cuando 'journal serve' es dueño de la carpeta, las demás
      órdenes se conectan a través de él.

  -c, --campaign ID, $JOURNAL_CAMPAIGN
      La campaña sobre la que actúa una orden.

  --json
      Escribe un documento JSON en lugar de texto. Los errores son entonces un
      objeto JSON en stderr: {"error": {"code": "...", "message": "...",
      "message_en": "...", "exit": N}}; «message» está en el idioma de la
      salida (--lang), «message_en» en inglés; «code» y «exit» no cambian con
      el idioma.

  --nats URL, $NATS_URL
      Usa un servidor o un clúster NATS externo en lugar del embebido (URL
      separadas por comas; «usuario:contraseña@» nunca se muestra).
      Con las credenciales de un jugador, un GM o un panel en la URL
      (nats://bea:CONTRASEÑA@host:4222, como las escribe 'journal access
      add'), desde cualquier máquina: la CLI es entonces cliente del
      servicio de comandos NATS del diario, no de JetStream. Actúa como ese
      usuario NATS (se rechaza un login que nombre a otro), lee una campaña
      (-c) con la orden de lectura del servicio, la sigue en
      journalfeed.<campaña> y registra solo los comandos del catálogo,
      firmando las tiradas v2 con la clave de este dispositivo. Una URL cuyo
      usuario es el del propio diario (papel journal en --access, si no el
      usuario "journal"), o sin usuario, es la conexión del propio diario a
      JetStream.

  --inbox-prefix PREFIJO
      Con --nats como jugador, GM o panel: el prefijo de buzón de tu usuario
      NATS, _INBOX.<usuario> por defecto (el único en el que responde el
      servicio); otro se rechaza antes de enviar nada.

  --replicas N
      Con --nats: el número de réplicas de un diario nuevo (da 3 al crearlo
      en un clúster), fijado al crearlo, igual para sus flujos y sus
      cubos. Las órdenes siguientes lo leen del diario (por defecto: el del
      diario, 1 para uno nuevo); un N distinto se rechaza, sin cambiar nada.
      El diario del servidor embebido tiene 1.

  --partitions K
      El número de particiones de un diario nuevo (de 1 a 64, por defecto 1),
      fijado al crearlo: sus campañas se reparten entre K flujos
      JOURNAL-0…K-1 según un resumen de su id. Las órdenes siguientes lo
      leen del diario; un K distinto se rechaza. 'journal serve' necesita una
      sola partición por ahora.

  --sync (por defecto true)
      Almacén embebido: sincroniza cada escritura con el disco antes de
      confirmarla. --sync=false deja que JetStream vuelque a su ritmo: un
      corte de luz puede entonces perder eventos confirmados.

  --access FILE, $JOURNAL_ACCESS
      El archivo de acceso (usuarios, roles, fichas; ver
      deploy/access.example.json): el servidor embebido solo admite a sus
      usuarios, y serve exige una ficha en /api/ y atiende el servicio de
      órdenes de NATS.

  --lang es|en, si no $LC_ALL, $LC_MESSAGES, $LANG (la primera que esté)
      El idioma de cada etiqueta, mensaje y página de ayuda: es* es español,
      cualquier otra cosa inglés. Las páginas de serve hablan el de serve
      --lang, si no el del navegador de cada cual.

Variables sin opción:

  $JOURNAL_ACTOR
      Quién es esta línea de órdenes, para un comando: manda sobre el
      usuario que fijó 'journal login' (no hay usuario por defecto: un
      dispositivo sin ninguno es rechazado cuando actúa), y lo que journal serve registra
      para las peticiones que atiende sin archivo de acceso (por defecto
      api; con uno, el nombre de cada usuario).

  $JOURNAL_CONFIG
      La carpeta del usuario de este dispositivo ('journal login':
      identity.json), de sus claves ('journal key'; firman tus tiradas
      journal-dice-v2: $JOURNAL_CONFIG/keys) y de sus recibos. Por defecto:
      journal/ en la carpeta de configuración del usuario.

  $XDG_CONFIG_HOME
      La carpeta de configuración del usuario (si no, ~/.config en Linux; la
      del sistema en los demás). Guarda journal/keys, la carpeta por defecto
      de las claves de dispositivo, y «campaign-journal/backup.key», la clave
      por defecto de 'journal backup' y 'journal restore' (--key nombra otra).

  $JOURNAL_URL
      El valor por defecto de 'journal invite --url': la dirección por la
      que los jugadores llegan a journal serve (por defecto
      http://127.0.0.1:8080).

  $TMPDIR
      Donde 'journal demo' crea su carpeta (sin --data) y las claves de
      dispositivo de sus jugadores, y donde replay --file copia una
      exportación que no es un archivo normal (una tubería).
`

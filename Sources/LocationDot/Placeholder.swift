// LocationDot: placeholder until its issue lands; replace this file.
